#include "sdk/emitters/llvm/kernel_emitter.h"

#include <algorithm>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/body_emitter.h"

namespace phal::llvm_emitter {
namespace {

constexpr int64_t kCopyChunkBytes = int64_t{1} << 20;

int64_t Product(const int64_t* dims, uint32_t count) {
  int64_t product = 1;
  for (uint32_t d = 0; d < count; ++d) product *= dims[d];
  return product;
}

int64_t ElementCount(const phal_kir_buffer_t& buffer) {
  return Product(buffer.dims, buffer.rank);
}

// Bytes of one dot sum as kernels hold it: 16-bit floats accumulate in f32.
int64_t SumBytes(phal_element_type_t type) {
  if (type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16) return 4;
  return StorageBytes(type);
}

phal_element_type_t ResultType(const phal_kir_body_t& body, uint32_t result) {
  return body.nodes[body.results[result]].type;
}

// Builds the one kernel function of a module and the loops inside it.
class KernelBuilder {
 public:
  KernelBuilder(const phal_kernel_desc_t& kernel, const TargetHooks& target,
                llvm::LLVMContext& context)
      : kernel_(kernel),
        module_(std::make_unique<llvm::Module>(
            kernel.name != nullptr ? kernel.name : "kernel", context)),
        target_(target),
        builder_(context) {
    target.ConfigureModule(*module_);
    llvm::Type* pointer = builder_.getPtrTy();
    llvm::Type* i64 = builder_.getInt64Ty();
    auto* type = llvm::FunctionType::get(builder_.getVoidTy(),
                                         {pointer, i64, i64, pointer}, false);
    function_ = llvm::Function::Create(type, llvm::Function::ExternalLinkage,
                                       kKernelSymbol, module_.get());
    function_->setDoesNotThrow();
    builder_.SetInsertPoint(
        llvm::BasicBlock::Create(context, "entry", function_));
    begin_ = function_->getArg(1);
    end_ = function_->getArg(2);
    dot_sums_ = function_->getArg(3);
    for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
      llvm::Value* slot =
          builder_.CreateConstInBoundsGEP1_64(pointer, function_->getArg(0), i);
      bound_buffers_.push_back(
          {&kernel.buffers[i], builder_.CreateLoad(pointer, slot)});
    }
    bodies_.emplace(builder_, bound_buffers_);
  }

  StatusOr<EmittedKernel> Emit() {
    switch (kernel_.kind) {
      case PHAL_KERNEL_KIND_LOOP:
        PHAL_RETURN_IF_ERROR(EmitLoop(*kernel_.u.loop));
        break;
      case PHAL_KERNEL_KIND_REDUCE:
        PHAL_RETURN_IF_ERROR(EmitReduce(*kernel_.u.reduce));
        break;
      case PHAL_KERNEL_KIND_DOT:
        PHAL_RETURN_IF_ERROR(EmitDot(*kernel_.u.dot));
        break;
      case PHAL_KERNEL_KIND_COPY:
        PHAL_RETURN_IF_ERROR(EmitCopy(*kernel_.u.copy));
        break;
      case PHAL_KERNEL_KIND_SORT:
        PHAL_RETURN_IF_ERROR(EmitSort(*kernel_.u.sort));
        break;
      case PHAL_KERNEL_KIND_GATHER:
        PHAL_RETURN_IF_ERROR(EmitGather(*kernel_.u.gather));
        break;
      case PHAL_KERNEL_KIND_SCATTER:
        PHAL_RETURN_IF_ERROR(EmitScatter(*kernel_.u.scatter));
        break;
      case PHAL_KERNEL_KIND_CONV:
        PHAL_RETURN_IF_ERROR(EmitConv(*kernel_.u.conv));
        break;
      default:
        return Unimplemented(std::string("the LLVM emitter does not implement "
                                         "kernel kind ") +
                             KernelKindName(kernel_.kind));
    }
    builder_.CreateRetVoid();
    plan_.kind = kernel_.kind;
    plan_.buffer_count = kernel_.buffer_count;
    return EmittedKernel{std::move(module_), plan_};
  }

 private:
  using Emitter = std::function<Status(llvm::Value*)>;

  // for (i = from; i < to; ++i) emit(i), leaving the builder after the loop.
  Status Loop(llvm::Value* from, llvm::Value* to, const Emitter& emit) {
    llvm::LLVMContext& context = builder_.getContext();
    llvm::BasicBlock* preheader = builder_.GetInsertBlock();
    auto* header = llvm::BasicBlock::Create(context, "loop", function_);
    auto* body = llvm::BasicBlock::Create(context, "body", function_);
    auto* exit = llvm::BasicBlock::Create(context, "exit", function_);
    builder_.CreateBr(header);
    builder_.SetInsertPoint(header);
    llvm::PHINode* index = builder_.CreatePHI(builder_.getInt64Ty(), 2);
    index->addIncoming(from, preheader);
    builder_.CreateCondBr(builder_.CreateICmpSLT(index, to), body, exit);
    builder_.SetInsertPoint(body);
    PHAL_RETURN_IF_ERROR(emit(index));
    index->addIncoming(builder_.CreateNSWAdd(index, builder_.getInt64(1)),
                       builder_.GetInsertBlock());
    builder_.CreateBr(header);
    builder_.SetInsertPoint(exit);
    return OkStatus();
  }

  // Loops over `extents` (the first over [begin, end) when `split`), setting
  // indices[d] to each loop's index, and calls `emit` in the innermost.
  Status Nest(const std::vector<int64_t>& extents, bool split,
              std::vector<llvm::Value*>& indices,
              const std::function<Status()>& emit, size_t level = 0) {
    if (level == extents.size()) return emit();
    llvm::Value* from = builder_.getInt64(0);
    llvm::Value* to = builder_.getInt64(extents[level]);
    if (split && level == 0) {
      from = begin_;
      to = end_;
    }
    return Loop(from, to, [&](llvm::Value* index) {
      indices[level] = index;
      return Nest(extents, split, indices, emit, level + 1);
    });
  }

  llvm::Value* Linear(const std::vector<llvm::Value*>& indices,
                      const std::vector<int64_t>& extents) {
    llvm::Value* linear = builder_.getInt64(0);
    for (size_t d = 0; d < extents.size(); ++d) {
      linear = builder_.CreateAdd(
          builder_.CreateMul(linear, builder_.getInt64(extents[d])),
          indices[d]);
    }
    return linear;
  }

  // Runs `body` over nothing (a rank-0 space) as one split unit.
  Status Once(const std::function<Status()>& body) {
    return Loop(begin_, end_, [&](llvm::Value*) { return body(); });
  }

  Status StoreResults(const phal_kir_body_t& body,
                      const std::vector<IrValue>& results,
                      const uint32_t* outputs, llvm::Value* linear) {
    for (uint32_t i = 0; i < body.result_count; ++i) {
      bodies_->Store(ResultType(body, i), results[i],
                     bodies_->ElementAddress(outputs[i], linear));
    }
    return OkStatus();
  }

  Status EmitLoop(const phal_kir_loop_t& loop) {
    const std::vector<int64_t> dims(loop.dims, loop.dims + loop.rank);
    plan_.split_extent = loop.rank == 0 ? 1 : dims[0];
    plan_.work_per_split =
        loop.rank == 0 ? 1 : Product(loop.dims + 1, loop.rank - 1);
    std::vector<llvm::Value*> indices(dims.size());
    auto body = [&]() -> Status {
      auto index = [&](int64_t d) -> llvm::Value* {
        return d >= 0 && static_cast<size_t>(d) < indices.size()
                   ? indices[static_cast<size_t>(d)]
                   : nullptr;
      };
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                            bodies_->Emit(loop.body, index, {}));
      return StoreResults(loop.body, results, loop.outputs,
                          Linear(indices, dims));
    };
    return dims.empty() ? Once(body) : Nest(dims, true, indices, body);
  }

  Status EmitReduce(const phal_kir_reduce_t& reduce) {
    const uint32_t n = reduce.accumulator_count;
    std::vector<bool> reduced(reduce.rank, false);
    for (uint32_t i = 0; i < reduce.reduced_count; ++i) {
      reduced[static_cast<size_t>(reduce.reduced_dims[i])] = true;
    }
    std::vector<int64_t> kept_dims, reduced_dims;
    std::vector<size_t> kept_positions, reduced_positions;
    for (uint32_t d = 0; d < reduce.rank; ++d) {
      (reduced[d] ? reduced_dims : kept_dims).push_back(reduce.dims[d]);
      (reduced[d] ? reduced_positions : kept_positions).push_back(d);
    }
    plan_.split_extent = kept_dims.empty() ? 1 : kept_dims[0];
    plan_.work_per_split = Product(reduce.dims, reduce.rank) /
                           std::max<int64_t>(1, plan_.split_extent);

    // Accumulators live in entry-block slots that mem2reg turns into SSA.
    std::vector<phal_element_type_t> types;
    std::vector<llvm::Value*> real_slots, imag_slots;
    llvm::IRBuilder<> entry(&function_->getEntryBlock(),
                            function_->getEntryBlock().begin());
    for (uint32_t j = 0; j < n; ++j) {
      const phal_element_type_t type = ResultType(reduce.init, j);
      types.push_back(type);
      real_slots.push_back(entry.CreateAlloca(bodies_->ComputeType(type)));
      imag_slots.push_back(IsComplex(type)
                               ? entry.CreateAlloca(bodies_->ComputeType(type))
                               : nullptr);
    }
    auto load = [&]() {
      std::vector<IrValue> values;
      for (uint32_t j = 0; j < n; ++j) {
        llvm::Type* type = bodies_->ComputeType(types[j]);
        values.push_back({builder_.CreateLoad(type, real_slots[j]),
                          imag_slots[j]
                              ? builder_.CreateLoad(type, imag_slots[j])
                              : nullptr});
      }
      return values;
    };
    auto store = [&](const std::vector<IrValue>& values) {
      for (uint32_t j = 0; j < n; ++j) {
        builder_.CreateStore(values[j].real, real_slots[j]);
        if (imag_slots[j]) builder_.CreateStore(values[j].imag, imag_slots[j]);
      }
    };

    std::vector<llvm::Value*> kept(kept_dims.size());
    std::vector<llvm::Value*> inner(reduced_dims.size());
    std::vector<llvm::Value*> full(reduce.rank);
    auto accumulate = [&]() -> Status {
      for (size_t i = 0; i < kept.size(); ++i)
        full[kept_positions[i]] = kept[i];
      for (size_t i = 0; i < inner.size(); ++i) {
        full[reduced_positions[i]] = inner[i];
      }
      auto index = [&](int64_t d) -> llvm::Value* {
        return d >= 0 && static_cast<size_t>(d) < full.size()
                   ? full[static_cast<size_t>(d)]
                   : nullptr;
      };
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> values,
                            bodies_->Emit(reduce.values, index, {}));
      std::vector<IrValue> parameters = load();
      parameters.insert(parameters.end(), values.begin(), values.end());
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> next,
                            bodies_->Emit(reduce.reducer, nullptr, parameters));
      store(next);
      return OkStatus();
    };
    auto output_point = [&]() -> Status {
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> initial,
                            bodies_->Emit(reduce.init, nullptr, {}));
      store(initial);
      PHAL_RETURN_IF_ERROR(Nest(reduced_dims, false, inner, accumulate));
      auto index = [&](int64_t d) -> llvm::Value* {
        return d >= 0 && static_cast<size_t>(d) < kept.size()
                   ? kept[static_cast<size_t>(d)]
                   : nullptr;
      };
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                            bodies_->Emit(reduce.epilogue, index, load()));
      return StoreResults(reduce.epilogue, results, reduce.outputs,
                          Linear(kept, kept_dims));
    };
    return kept_dims.empty() ? Once(output_point)
                             : Nest(kept_dims, true, kept, output_point);
  }

  // Products and sums of a dot in its accumulation type.
  StatusOr<IrValue> MultiplyAdd(phal_element_type_t type, IrValue sum,
                                IrValue a, IrValue b) {
    if (IsComplex(type)) {
      llvm::Value* real =
          builder_.CreateFSub(builder_.CreateFMul(a.real, b.real),
                              builder_.CreateFMul(a.imag, b.imag));
      llvm::Value* imag =
          builder_.CreateFAdd(builder_.CreateFMul(a.real, b.imag),
                              builder_.CreateFMul(a.imag, b.real));
      return IrValue{builder_.CreateFAdd(sum.real, real),
                     builder_.CreateFAdd(sum.imag, imag)};
    }
    if (IsFloat(type)) {
      // 16-bit accumulation rounds after each operation, like any node.
      llvm::Value* product = builder_.CreateFMul(a.real, b.real);
      if (type != PHAL_ELEMENT_TYPE_F16 && type != PHAL_ELEMENT_TYPE_BF16) {
        return IrValue{builder_.CreateFAdd(sum.real, product)};
      }
      PHAL_ASSIGN_OR_RETURN(
          IrValue rounded,
          bodies_->Convert({product}, PHAL_ELEMENT_TYPE_F32, type));
      return bodies_->Convert({builder_.CreateFAdd(sum.real, rounded.real)},
                              PHAL_ELEMENT_TYPE_F32, type);
    }
    if (type == PHAL_ELEMENT_TYPE_PRED) {
      return IrValue{
          builder_.CreateOr(sum.real, builder_.CreateAnd(a.real, b.real))};
    }
    return IrValue{
        builder_.CreateAdd(sum.real, builder_.CreateMul(a.real, b.real))};
  }

  void PlanGemm(const phal_kir_dot_t& dot) {
    const phal_element_type_t type = dot.accumulation_type;
    if (!target_.HasGemm(type) ||
        kernel_.buffers[dot.lhs].element_type != type ||
        kernel_.buffers[dot.rhs].element_type != type) {
      return;
    }
    GemmShape gemm;
    gemm.type = type;
    gemm.lhs = dot.lhs;
    gemm.rhs = dot.rhs;
    gemm.batch = dot.batch;
    gemm.m = dot.m;
    gemm.n = dot.n;
    gemm.k = dot.k;
    gemm.lhs_batch_stride = dot.lhs_strides[0];
    gemm.rhs_batch_stride = dot.rhs_strides[0];
    // A is m x k: row-major with unit column stride, or its transpose.
    if (dot.lhs_strides[2] == 1 &&
        dot.lhs_strides[1] >= std::max<int64_t>(1, dot.k)) {
      gemm.lhs_leading = dot.lhs_strides[1];
    } else if (dot.lhs_strides[1] == 1 &&
               dot.lhs_strides[2] >= std::max<int64_t>(1, dot.m)) {
      gemm.lhs_transposed = 1;
      gemm.lhs_leading = dot.lhs_strides[2];
    } else {
      return;
    }
    if (dot.rhs_strides[2] == 1 &&
        dot.rhs_strides[1] >= std::max<int64_t>(1, dot.n)) {
      gemm.rhs_leading = dot.rhs_strides[1];
    } else if (dot.rhs_strides[1] == 1 &&
               dot.rhs_strides[2] >= std::max<int64_t>(1, dot.k)) {
      gemm.rhs_transposed = 1;
      gemm.rhs_leading = dot.rhs_strides[2];
    } else {
      return;
    }
    plan_.gemm = gemm;
  }

  // Where the sum of output element `linear` lives in `dot_sums`.
  llvm::Value* SumAddress(phal_element_type_t type, llvm::Value* linear) {
    return builder_.CreateInBoundsGEP(
        bodies_->ComputeType(type), dot_sums_,
        IsComplex(type) ? builder_.CreateShl(linear, 1) : linear);
  }

  IrValue LoadSum(phal_element_type_t type, llvm::Value* address) {
    llvm::Type* compute = bodies_->ComputeType(type);
    if (!IsComplex(type)) return IrValue{builder_.CreateLoad(compute, address)};
    return IrValue{
        builder_.CreateLoad(compute, address),
        builder_.CreateLoad(
            compute, builder_.CreateConstInBoundsGEP1_64(compute, address, 1))};
  }

  void StoreSum(phal_element_type_t type, IrValue sum, llvm::Value* address) {
    builder_.CreateStore(sum.real, address);
    if (IsComplex(type)) {
      builder_.CreateStore(sum.imag,
                           builder_.CreateConstInBoundsGEP1_64(
                               bodies_->ComputeType(type), address, 1));
    }
  }

  // sums[row][j] = sum over k of A[b, i, k] * B[b, k, j] for every j, in
  // ascending k, with j innermost: the inner loop walks a row of B and the
  // row of sums, which the vectoriser widens.
  Status EmitRowSums(const phal_kir_dot_t& dot, llvm::Value* b, llvm::Value* i,
                     llvm::Value* row) {
    const phal_element_type_t type = dot.accumulation_type;
    const phal_element_type_t lhs_type = kernel_.buffers[dot.lhs].element_type;
    const phal_element_type_t rhs_type = kernel_.buffers[dot.rhs].element_type;
    llvm::Value* zero =
        llvm::Constant::getNullValue(bodies_->ComputeType(type));
    llvm::Value* row_start = builder_.CreateMul(row, builder_.getInt64(dot.n));
    llvm::Value* n = builder_.getInt64(dot.n);
    auto sum_address = [&](llvm::Value* j) {
      return SumAddress(type, builder_.CreateAdd(row_start, j));
    };
    auto offset = [&](const int64_t* strides, llvm::Value* x, llvm::Value* y) {
      return builder_.CreateAdd(
          builder_.CreateAdd(
              builder_.CreateMul(b, builder_.getInt64(strides[0])),
              builder_.CreateMul(x, builder_.getInt64(strides[1]))),
          builder_.CreateMul(y, builder_.getInt64(strides[2])));
    };
    PHAL_RETURN_IF_ERROR(
        Loop(builder_.getInt64(0), n, [&](llvm::Value* j) -> Status {
          StoreSum(type, IrValue{zero, IsComplex(type) ? zero : nullptr},
                   sum_address(j));
          return OkStatus();
        }));
    return Loop(
        builder_.getInt64(0), builder_.getInt64(dot.k),
        [&](llvm::Value* k) -> Status {
          IrValue a = bodies_->Load(
              lhs_type,
              bodies_->ElementAddress(dot.lhs, offset(dot.lhs_strides, i, k)));
          PHAL_ASSIGN_OR_RETURN(IrValue a_wide,
                                bodies_->Convert(a, lhs_type, type));
          return Loop(builder_.getInt64(0), n, [&](llvm::Value* j) -> Status {
            IrValue c = bodies_->Load(
                rhs_type, bodies_->ElementAddress(
                              dot.rhs, offset(dot.rhs_strides, k, j)));
            PHAL_ASSIGN_OR_RETURN(IrValue c_wide,
                                  bodies_->Convert(c, rhs_type, type));
            llvm::Value* address = sum_address(j);
            PHAL_ASSIGN_OR_RETURN(
                IrValue next,
                MultiplyAdd(type, LoadSum(type, address), a_wide, c_wide));
            StoreSum(type, next, address);
            return OkStatus();
          });
        });
  }

  Status EmitDot(const phal_kir_dot_t& dot) {
    const phal_element_type_t type = dot.accumulation_type;
    const bool has_epilogue = dot.epilogue.result_count > 0;
    const phal_element_type_t output_type =
        has_epilogue ? ResultType(dot.epilogue, 0) : type;
    PlanGemm(dot);
    plan_.split_extent = dot.batch * dot.m;
    plan_.work_per_split =
        std::max<int64_t>(1, dot.n * std::max<int64_t>(1, dot.k));
    plan_.dot_sums_bytes = dot.batch * dot.m * dot.n * SumBytes(type);
    const bool sums_given = plan_.gemm.type != PHAL_ELEMENT_TYPE_INVALID;
    llvm::Value* m = builder_.getInt64(std::max<int64_t>(1, dot.m));
    return Loop(begin_, end_, [&](llvm::Value* row) -> Status {
      llvm::Value* b = builder_.CreateSDiv(row, m);
      llvm::Value* i = builder_.CreateSRem(row, m);
      if (!sums_given) PHAL_RETURN_IF_ERROR(EmitRowSums(dot, b, i, row));
      return Loop(builder_.getInt64(0), builder_.getInt64(dot.n),
                  [&](llvm::Value* j) -> Status {
                    llvm::Value* linear = builder_.CreateAdd(
                        builder_.CreateMul(row, builder_.getInt64(dot.n)), j);
                    const IrValue sum = LoadSum(type, SumAddress(type, linear));
                    llvm::Value* output =
                        bodies_->ElementAddress(dot.output, linear);
                    if (!has_epilogue) {
                      bodies_->Store(type, sum, output);
                      return OkStatus();
                    }
                    llvm::Value* indices[] = {b, i, j};
                    auto index = [&](int64_t d) -> llvm::Value* {
                      return d >= 0 && d < 3 ? indices[d] : nullptr;
                    };
                    const IrValue parameters[] = {sum};
                    PHAL_ASSIGN_OR_RETURN(
                        std::vector<IrValue> results,
                        bodies_->Emit(dot.epilogue, index, parameters));
                    bodies_->Store(output_type, results[0], output);
                    return OkStatus();
                  });
    });
  }

  // The comparator as a function of its own,
  //   i1 phal_sort_compare(ptr buffers, i64 base, i64 stride, i64 a, i64 b),
  // comparing elements a and b of the slice at `base` (linear index) whose
  // elements are `stride` apart.
  StatusOr<llvm::Function*> EmitSortComparator(const phal_kir_sort_t& sort) {
    llvm::Type* pointer = builder_.getPtrTy();
    llvm::Type* i64 = builder_.getInt64Ty();
    auto* type = llvm::FunctionType::get(builder_.getInt1Ty(),
                                         {pointer, i64, i64, i64, i64}, false);
    auto* compare =
        llvm::Function::Create(type, llvm::Function::InternalLinkage,
                               "phal_sort_compare", module_.get());
    compare->setDoesNotThrow();
    compare->addRetAttr(llvm::Attribute::ZExt);
    llvm::IRBuilder<>::InsertPointGuard restore(builder_);
    builder_.SetInsertPoint(
        llvm::BasicBlock::Create(builder_.getContext(), "entry", compare));
    std::vector<BoundBuffer> buffers;
    for (uint32_t i = 0; i < kernel_.buffer_count; ++i) {
      llvm::Value* slot =
          builder_.CreateConstInBoundsGEP1_64(pointer, compare->getArg(0), i);
      buffers.push_back(
          {&kernel_.buffers[i], builder_.CreateLoad(pointer, slot)});
    }
    BodyEmitter bodies(builder_, buffers);
    std::vector<IrValue> parameters;
    for (uint32_t i = 0; i < sort.operand_count; ++i) {
      const uint32_t buffer = sort.operands[i];
      for (llvm::Value* element : {compare->getArg(3), compare->getArg(4)}) {
        llvm::Value* linear =
            builder_.CreateAdd(compare->getArg(1),
                               builder_.CreateMul(element, compare->getArg(2)));
        parameters.push_back(
            bodies.Load(kernel_.buffers[buffer].element_type,
                        bodies.ElementAddress(buffer, linear)));
      }
    }
    PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                          bodies.Emit(sort.comparator, nullptr, parameters));
    builder_.CreateRet(results[0].real);
    return compare;
  }

  // Slices along `dimension` are split over the range; each is sorted by
  // phal_rt_sort (runtime_functions.h) with the emitted comparator.
  Status EmitSort(const phal_kir_sort_t& sort) {
    const phal_kir_buffer_t& shape = kernel_.buffers[sort.operands[0]];
    const auto dimension = static_cast<uint32_t>(sort.dimension);
    const int64_t length = shape.dims[dimension];
    const int64_t inner =
        Product(shape.dims + dimension + 1, shape.rank - dimension - 1);
    const int64_t outer = Product(shape.dims, dimension);
    plan_.split_extent = length == 0 ? 0 : outer * inner;
    plan_.work_per_split = std::max<int64_t>(1, length) * 8;
    PHAL_ASSIGN_OR_RETURN(llvm::Function * compare, EmitSortComparator(sort));
    // [operand count, stable, length, inner, element bytes..., operand
    // buffers..., output buffers...]
    std::vector<uint64_t> description = {sort.operand_count, sort.is_stable,
                                         static_cast<uint64_t>(length),
                                         static_cast<uint64_t>(inner)};
    for (uint32_t i = 0; i < sort.operand_count; ++i) {
      description.push_back(static_cast<uint64_t>(
          StorageBytes(kernel_.buffers[sort.operands[i]].element_type)));
    }
    description.insert(description.end(), sort.operands,
                       sort.operands + sort.operand_count);
    description.insert(description.end(), sort.outputs,
                       sort.outputs + sort.operand_count);
    llvm::Constant* table =
        llvm::ConstantDataArray::get(builder_.getContext(), description);
    auto* global = new llvm::GlobalVariable(*module_, table->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage,
                                            table, "phal_sort_description");
    llvm::Type* pointer = builder_.getPtrTy();
    llvm::Type* i64 = builder_.getInt64Ty();
    llvm::FunctionCallee sort_slices = module_->getOrInsertFunction(
        "phal_rt_sort",
        llvm::FunctionType::get(builder_.getVoidTy(),
                                {pointer, i64, i64, pointer, pointer}, false));
    builder_.CreateCall(sort_slices,
                        {function_->getArg(0), begin_, end_, global, compare});
    return OkStatus();
  }

  // The operand index one output element of a gather reads, as the
  // StableHLO specification computes it: start indices (clamped so the
  // slice fits), batching indices, and offsets within the slice.
  std::vector<llvm::Value*> GatherOperandIndex(
      const phal_kir_gather_t& gather, const std::vector<llvm::Value*>& out) {
    const phal_kir_buffer_t& operand = kernel_.buffers[gather.operand];
    const phal_kir_buffer_t& indices = kernel_.buffers[gather.start_indices];
    auto contains = [](const int64_t* values, uint32_t count, int64_t value) {
      return std::find(values, values + count, value) != values + count;
    };
    std::vector<llvm::Value*> batch;  // output dimensions not in offset_dims
    for (uint32_t d = 0; d < kernel_.buffers[gather.output].rank; ++d) {
      if (!contains(gather.offset_dims, gather.offset_dims_count, d)) {
        batch.push_back(out[d]);
      }
    }
    // The start_indices position of batch index `batch` with `component`
    // at index_vector_dim.
    auto index_position = [&](llvm::Value* component) {
      std::vector<llvm::Value*> position;
      size_t next = 0;
      for (uint32_t d = 0; d < indices.rank; ++d) {
        position.push_back(static_cast<int64_t>(d) == gather.index_vector_dim
                               ? component
                               : batch[next++]);
      }
      return position;
    };
    llvm::Value* zero = builder_.getInt64(0);
    std::vector<llvm::Value*> result(operand.rank, zero);
    for (uint32_t k = 0; k < gather.start_index_map_count; ++k) {
      const auto d = static_cast<size_t>(gather.start_index_map[k]);
      const std::vector<llvm::Value*> position =
          index_position(builder_.getInt64(k));
      llvm::Value* linear = builder_.getInt64(0);
      for (uint32_t i = 0; i < indices.rank; ++i) {
        linear = builder_.CreateAdd(
            builder_.CreateMul(linear, builder_.getInt64(indices.dims[i])),
            position[i]);
      }
      const IrValue raw =
          bodies_->Load(indices.element_type,
                        bodies_->ElementAddress(gather.start_indices, linear));
      llvm::Value* start = builder_.CreateIntCast(
          raw.real, builder_.getInt64Ty(), IsSigned(indices.element_type));
      llvm::Value* highest =
          builder_.getInt64(operand.dims[d] - gather.slice_sizes[d]);
      start = builder_.CreateBinaryIntrinsic(
          llvm::Intrinsic::smin,
          builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, start, zero),
          highest);
      result[d] = start;
    }
    for (uint32_t i = 0; i < gather.operand_batching_dims_count; ++i) {
      const int64_t indices_dim = gather.start_indices_batching_dims[i];
      const size_t component = static_cast<size_t>(
          indices_dim < gather.index_vector_dim ? indices_dim
                                                : indices_dim - 1);
      const auto d = static_cast<size_t>(gather.operand_batching_dims[i]);
      result[d] = builder_.CreateAdd(result[d], batch[component]);
    }
    uint32_t offset = 0;
    for (uint32_t d = 0; d < operand.rank; ++d) {
      if (contains(gather.collapsed_slice_dims,
                   gather.collapsed_slice_dims_count, d) ||
          contains(gather.operand_batching_dims,
                   gather.operand_batching_dims_count, d)) {
        continue;
      }
      const auto output_dim = static_cast<size_t>(gather.offset_dims[offset++]);
      result[d] = builder_.CreateAdd(result[d], out[output_dim]);
    }
    return result;
  }

  // A loop over the output; each element reads one operand element.
  Status EmitGather(const phal_kir_gather_t& gather) {
    const phal_kir_buffer_t& output = kernel_.buffers[gather.output];
    const phal_kir_buffer_t& operand = kernel_.buffers[gather.operand];
    const std::vector<int64_t> dims(output.dims, output.dims + output.rank);
    const std::vector<int64_t> operand_dims(operand.dims,
                                            operand.dims + operand.rank);
    plan_.split_extent = dims.empty() ? 1 : dims[0];
    plan_.work_per_split =
        dims.empty() ? 1 : Product(output.dims + 1, output.rank - 1);
    std::vector<llvm::Value*> out(dims.size());
    auto element = [&]() -> Status {
      const std::vector<llvm::Value*> source = GatherOperandIndex(gather, out);
      const IrValue value =
          bodies_->Load(operand.element_type,
                        bodies_->ElementAddress(gather.operand,
                                                Linear(source, operand_dims)));
      bodies_->Store(output.element_type, value,
                     bodies_->ElementAddress(gather.output, Linear(out, dims)));
      return OkStatus();
    };
    return dims.empty() ? Once(element) : Nest(dims, true, out, element);
  }

  // The operand index one update element goes to, as the StableHLO
  // specification computes it (no clamping: the caller skips indices out of
  // bounds).
  std::vector<llvm::Value*> ScatterResultIndex(
      const phal_kir_scatter_t& scatter,
      const std::vector<llvm::Value*>& update) {
    const phal_kir_buffer_t& operand = kernel_.buffers[scatter.operand];
    const phal_kir_buffer_t& indices = kernel_.buffers[scatter.scatter_indices];
    auto contains = [](const int64_t* values, uint32_t count, int64_t value) {
      return std::find(values, values + count, value) != values + count;
    };
    std::vector<llvm::Value*> batch;  // update dimensions not in the window
    for (uint32_t d = 0; d < kernel_.buffers[scatter.updates].rank; ++d) {
      if (!contains(scatter.update_window_dims,
                    scatter.update_window_dims_count, d)) {
        batch.push_back(update[d]);
      }
    }
    llvm::Value* zero = builder_.getInt64(0);
    std::vector<llvm::Value*> result(operand.rank, zero);
    for (uint32_t k = 0; k < scatter.scatter_dims_to_operand_dims_count; ++k) {
      llvm::Value* linear = builder_.getInt64(0);
      size_t next = 0;
      for (uint32_t d = 0; d < indices.rank; ++d) {
        llvm::Value* position =
            static_cast<int64_t>(d) == scatter.index_vector_dim
                ? builder_.getInt64(k)
                : batch[next++];
        linear = builder_.CreateAdd(
            builder_.CreateMul(linear, builder_.getInt64(indices.dims[d])),
            position);
      }
      const IrValue raw = bodies_->Load(
          indices.element_type,
          bodies_->ElementAddress(scatter.scatter_indices, linear));
      const auto d =
          static_cast<size_t>(scatter.scatter_dims_to_operand_dims[k]);
      result[d] = builder_.CreateIntCast(raw.real, builder_.getInt64Ty(),
                                         IsSigned(indices.element_type));
    }
    for (uint32_t i = 0; i < scatter.input_batching_dims_count; ++i) {
      const int64_t indices_dim = scatter.scatter_indices_batching_dims[i];
      const auto component = static_cast<size_t>(
          indices_dim < scatter.index_vector_dim ? indices_dim
                                                 : indices_dim - 1);
      const auto d = static_cast<size_t>(scatter.input_batching_dims[i]);
      result[d] = builder_.CreateAdd(result[d], batch[component]);
    }
    uint32_t window = 0;
    for (uint32_t d = 0; d < operand.rank; ++d) {
      if (contains(scatter.inserted_window_dims,
                   scatter.inserted_window_dims_count, d) ||
          contains(scatter.input_batching_dims,
                   scatter.input_batching_dims_count, d)) {
        continue;
      }
      const auto update_dim =
          static_cast<size_t>(scatter.update_window_dims[window++]);
      result[d] = builder_.CreateAdd(result[d], update[update_dim]);
    }
    return result;
  }

  // One unit of work, on one thread: updates to one element are applied in
  // the order of the updates, and no two threads race on an element. The
  // output starts as a copy of the operand unless they are one buffer.
  Status EmitScatter(const phal_kir_scatter_t& scatter) {
    const phal_kir_buffer_t& operand = kernel_.buffers[scatter.operand];
    const phal_kir_buffer_t& updates = kernel_.buffers[scatter.updates];
    const std::vector<int64_t> operand_dims(operand.dims,
                                            operand.dims + operand.rank);
    const std::vector<int64_t> update_dims(updates.dims,
                                           updates.dims + updates.rank);
    plan_.split_extent = 1;
    plan_.work_per_split = ElementCount(operand) + ElementCount(updates);
    return Once([&]() -> Status {
      if (scatter.output != scatter.operand) {
        builder_.CreateMemCpy(
            bound_buffers_[scatter.output].base, llvm::MaybeAlign(1),
            bound_buffers_[scatter.operand].base, llvm::MaybeAlign(1),
            builder_.getInt64(ElementCount(operand) *
                              StorageBytes(operand.element_type)));
      }
      std::vector<llvm::Value*> update(update_dims.size());
      auto apply = [&]() -> Status {
        const std::vector<llvm::Value*> target =
            ScatterResultIndex(scatter, update);
        llvm::Value* in_bounds = builder_.getTrue();
        for (size_t d = 0; d < target.size(); ++d) {
          in_bounds = builder_.CreateAnd(
              in_bounds, builder_.CreateICmpULT(
                             target[d], builder_.getInt64(operand_dims[d])));
        }
        llvm::LLVMContext& context = builder_.getContext();
        auto* write = llvm::BasicBlock::Create(context, "write", function_);
        auto* done = llvm::BasicBlock::Create(context, "done", function_);
        builder_.CreateCondBr(in_bounds, write, done);
        builder_.SetInsertPoint(write);
        llvm::Value* address = bodies_->ElementAddress(
            scatter.output, Linear(target, operand_dims));
        const IrValue parameters[] = {
            bodies_->Load(operand.element_type, address),
            bodies_->Load(updates.element_type,
                          bodies_->ElementAddress(
                              scatter.updates, Linear(update, update_dims)))};
        PHAL_ASSIGN_OR_RETURN(
            std::vector<IrValue> combined,
            bodies_->Emit(scatter.combiner, nullptr, parameters));
        bodies_->Store(operand.element_type, combined[0], address);
        builder_.CreateBr(done);
        builder_.SetInsertPoint(done);
        return OkStatus();
      };
      return Nest(update_dims, false, update, apply);
    });
  }

  // One output element's sum: over the kernel's input features and spatial
  // window, input positions in the padded, dilated input that fall on an
  // input element.
  StatusOr<IrValue> EmitConvSum(const phal_kir_conv_t& conv,
                                const std::vector<llvm::Value*>& out) {
    const phal_kir_buffer_t& input = kernel_.buffers[conv.input];
    const phal_kir_buffer_t& weights = kernel_.buffers[conv.kernel];
    const phal_element_type_t type = conv.accumulation_type;
    llvm::Type* compute = bodies_->ComputeType(type);
    llvm::Value* zero = llvm::Constant::getNullValue(compute);
    llvm::IRBuilder<> entry(&function_->getEntryBlock(),
                            function_->getEntryBlock().begin());
    llvm::Value* real_slot = entry.CreateAlloca(compute);
    llvm::Value* imag_slot =
        IsComplex(type) ? entry.CreateAlloca(compute) : nullptr;
    builder_.CreateStore(zero, real_slot);
    if (imag_slot) builder_.CreateStore(zero, imag_slot);

    const int64_t kernel_features =
        weights.dims[conv.kernel_input_feature_dimension];
    const int64_t output_features =
        weights.dims[conv.kernel_output_feature_dimension];
    const int64_t output_batch =
        kernel_.buffers[conv.output].dims[conv.output_batch_dimension];
    llvm::Value* feature =
        out[static_cast<size_t>(conv.output_feature_dimension)];
    llvm::Value* batch = out[static_cast<size_t>(conv.output_batch_dimension)];
    // Feature group g reads input features [g * kernel_features, ...);
    // batch group h reads input batch h * output_batch + batch.
    llvm::Value* feature_group = builder_.CreateSDiv(
        feature, builder_.getInt64(output_features / conv.feature_group_count));
    llvm::Value* batch_group = builder_.CreateSDiv(
        feature, builder_.getInt64(output_features / conv.batch_group_count));
    llvm::Value* input_batch = builder_.CreateAdd(
        builder_.CreateMul(batch_group, builder_.getInt64(output_batch)),
        batch);

    std::vector<int64_t> loop_extents = {kernel_features};
    for (uint32_t s = 0; s < conv.spatial_count; ++s) {
      loop_extents.push_back(weights.dims[conv.kernel_spatial_dimensions[s]]);
    }
    std::vector<llvm::Value*> loop(loop_extents.size());
    auto accumulate = [&]() -> Status {
      std::vector<llvm::Value*> input_index(input.rank),
          kernel_index(weights.rank);
      input_index[static_cast<size_t>(conv.input_batch_dimension)] =
          input_batch;
      input_index[static_cast<size_t>(conv.input_feature_dimension)] =
          builder_.CreateAdd(
              builder_.CreateMul(feature_group,
                                 builder_.getInt64(kernel_features)),
              loop[0]);
      kernel_index[static_cast<size_t>(conv.kernel_input_feature_dimension)] =
          loop[0];
      kernel_index[static_cast<size_t>(conv.kernel_output_feature_dimension)] =
          feature;
      llvm::Value* valid = builder_.getTrue();
      for (uint32_t s = 0; s < conv.spatial_count; ++s) {
        const int64_t window = loop_extents[s + 1];
        llvm::Value* k = loop[s + 1];
        kernel_index[static_cast<size_t>(conv.kernel_spatial_dimensions[s])] =
            conv.window_reversal != nullptr && conv.window_reversal[s] != 0
                ? builder_.CreateSub(builder_.getInt64(window - 1), k)
                : k;
        // Position in the padded, lhs-dilated input.
        llvm::Value* position = builder_.CreateSub(
            builder_.CreateAdd(
                builder_.CreateMul(
                    out[static_cast<size_t>(conv.output_spatial_dimensions[s])],
                    builder_.getInt64(conv.window_strides[s])),
                builder_.CreateMul(k, builder_.getInt64(conv.rhs_dilation[s]))),
            builder_.getInt64(conv.padding[2 * s]));
        llvm::Value* dilation = builder_.getInt64(conv.lhs_dilation[s]);
        llvm::Value* element = builder_.CreateSDiv(position, dilation);
        const int64_t extent = input.dims[conv.input_spatial_dimensions[s]];
        valid = builder_.CreateAnd(
            valid,
            builder_.CreateAnd(
                builder_.CreateICmpSGE(position, builder_.getInt64(0)),
                builder_.CreateAnd(builder_.CreateICmpEQ(
                                       builder_.CreateSRem(position, dilation),
                                       builder_.getInt64(0)),
                                   builder_.CreateICmpSLT(
                                       element, builder_.getInt64(extent)))));
        input_index[static_cast<size_t>(conv.input_spatial_dimensions[s])] =
            element;
      }
      llvm::LLVMContext& context = builder_.getContext();
      auto* add = llvm::BasicBlock::Create(context, "tap", function_);
      auto* next = llvm::BasicBlock::Create(context, "next", function_);
      builder_.CreateCondBr(valid, add, next);
      builder_.SetInsertPoint(add);
      const std::vector<int64_t> input_dims(input.dims,
                                            input.dims + input.rank);
      const std::vector<int64_t> kernel_dims(weights.dims,
                                             weights.dims + weights.rank);
      IrValue x = bodies_->Load(
          input.element_type,
          bodies_->ElementAddress(conv.input, Linear(input_index, input_dims)));
      IrValue w =
          bodies_->Load(weights.element_type,
                        bodies_->ElementAddress(
                            conv.kernel, Linear(kernel_index, kernel_dims)));
      PHAL_ASSIGN_OR_RETURN(IrValue x_wide,
                            bodies_->Convert(x, input.element_type, type));
      PHAL_ASSIGN_OR_RETURN(IrValue w_wide,
                            bodies_->Convert(w, weights.element_type, type));
      const IrValue sum{
          builder_.CreateLoad(compute, real_slot),
          imag_slot ? builder_.CreateLoad(compute, imag_slot) : nullptr};
      PHAL_ASSIGN_OR_RETURN(IrValue total,
                            MultiplyAdd(type, sum, x_wide, w_wide));
      builder_.CreateStore(total.real, real_slot);
      if (imag_slot) builder_.CreateStore(total.imag, imag_slot);
      builder_.CreateBr(next);
      builder_.SetInsertPoint(next);
      return OkStatus();
    };
    PHAL_RETURN_IF_ERROR(Nest(loop_extents, false, loop, accumulate));
    return IrValue{
        builder_.CreateLoad(compute, real_slot),
        imag_slot ? builder_.CreateLoad(compute, imag_slot) : nullptr};
  }

  // A loop over the output (split on its dimension 0); each element sums
  // its window directly and applies the epilogue.
  Status EmitConv(const phal_kir_conv_t& conv) {
    const phal_kir_buffer_t& output = kernel_.buffers[conv.output];
    const phal_kir_buffer_t& weights = kernel_.buffers[conv.kernel];
    const phal_element_type_t type = conv.accumulation_type;
    const bool has_epilogue = conv.epilogue.result_count > 0;
    const phal_element_type_t output_type =
        has_epilogue ? ResultType(conv.epilogue, 0) : type;
    const std::vector<int64_t> dims(output.dims, output.dims + output.rank);
    plan_.split_extent = dims[0];
    plan_.work_per_split = std::max<int64_t>(
        1, Product(output.dims + 1, output.rank - 1) * ElementCount(weights) /
               std::max<int64_t>(
                   1, weights.dims[conv.kernel_output_feature_dimension]));
    std::vector<llvm::Value*> out(dims.size());
    auto element = [&]() -> Status {
      PHAL_ASSIGN_OR_RETURN(IrValue sum, EmitConvSum(conv, out));
      llvm::Value* address =
          bodies_->ElementAddress(conv.output, Linear(out, dims));
      if (!has_epilogue) {
        bodies_->Store(type, sum, address);
        return OkStatus();
      }
      auto index = [&](int64_t d) -> llvm::Value* {
        return d >= 0 && static_cast<size_t>(d) < out.size()
                   ? out[static_cast<size_t>(d)]
                   : nullptr;
      };
      const IrValue parameters[] = {sum};
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                            bodies_->Emit(conv.epilogue, index, parameters));
      bodies_->Store(output_type, results[0], address);
      return OkStatus();
    };
    return Nest(dims, true, out, element);
  }

  Status EmitCopy(const phal_kir_copy_t& copy) {
    const phal_kir_buffer_t& source = kernel_.buffers[copy.source];
    const int64_t bytes =
        ElementCount(source) * StorageBytes(source.element_type);
    plan_.split_extent = (bytes + kCopyChunkBytes - 1) / kCopyChunkBytes;
    plan_.work_per_split = kCopyChunkBytes / 8;
    llvm::Value* source_base = bound_buffers_[copy.source].base;
    llvm::Value* destination_base = bound_buffers_[copy.destination].base;
    return Loop(begin_, end_, [&](llvm::Value* chunk) {
      llvm::Value* offset =
          builder_.CreateMul(chunk, builder_.getInt64(kCopyChunkBytes));
      llvm::Value* length = builder_.CreateBinaryIntrinsic(
          llvm::Intrinsic::smin, builder_.getInt64(kCopyChunkBytes),
          builder_.CreateSub(builder_.getInt64(bytes), offset));
      builder_.CreateMemCpy(
          builder_.CreateInBoundsGEP(builder_.getInt8Ty(), destination_base,
                                     offset),
          llvm::MaybeAlign(1),
          builder_.CreateInBoundsGEP(builder_.getInt8Ty(), source_base, offset),
          llvm::MaybeAlign(1), length);
      return OkStatus();
    });
  }

  const phal_kernel_desc_t& kernel_;
  std::unique_ptr<llvm::Module> module_;
  const TargetHooks& target_;
  llvm::IRBuilder<> builder_;
  std::vector<BoundBuffer> bound_buffers_;
  std::optional<BodyEmitter> bodies_;
  llvm::Function* function_ = nullptr;
  llvm::Value* begin_ = nullptr;
  llvm::Value* end_ = nullptr;
  llvm::Value* dot_sums_ = nullptr;
  LaunchPlan plan_;
};

}  // namespace

Status CheckKernel(const phal_kernel_desc_t& kernel) {
  PHAL_RETURN_IF_ERROR(
      CheckKernelKind(kernel, SupportedKernelKinds(), "the LLVM emitter"));
  return CheckKernelStructure(kernel);
}

uint64_t SupportedKernelKinds() {
  return PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_LOOP) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_REDUCE) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_DOT) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_COPY) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_SORT) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_GATHER) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_SCATTER) |
         PHAL_KERNEL_KIND_BIT(PHAL_KERNEL_KIND_CONV);
}

StatusOr<EmittedKernel> EmitKernel(const phal_kernel_desc_t& kernel,
                                   const TargetHooks& target,
                                   llvm::LLVMContext& context) {
  PHAL_RETURN_IF_ERROR(CheckKernel(kernel));
  KernelBuilder builder(kernel, target, context);
  return builder.Emit();
}

}  // namespace phal::llvm_emitter
