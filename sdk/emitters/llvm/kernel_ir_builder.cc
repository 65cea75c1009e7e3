#include "sdk/emitters/llvm/kernel_ir_builder.h"

#include <algorithm>
#include <string>

#include "sdk/kir/facts.h"

namespace phal::llvm_emitter {

int64_t Product(const int64_t* dims, uint32_t count) {
  int64_t product = 1;
  for (uint32_t d = 0; d < count; ++d) product *= dims[d];
  return product;
}

int64_t ElementCount(const phal_kir_buffer_t& buffer) {
  return Product(buffer.dims, buffer.rank);
}

phal_element_type_t ResultType(const phal_kir_body_t& body, uint32_t result) {
  return body.nodes[body.results[result]].type;
}

KernelIrBuilder::KernelIrBuilder(const phal_kernel_desc_t& kernel,
                                 const ModuleTarget& target,
                                 llvm::LLVMContext& context)
    : kernel_(kernel),
      module_(std::make_unique<llvm::Module>(
          kernel.name != nullptr ? kernel.name : "kernel", context)),
      builder_(context),
      half_conversions_(target.HasHalfConversions()) {
  target.ConfigureModule(*module_);
}

void KernelIrBuilder::Bind(llvm::Function* function,
                           const std::vector<llvm::Value*>& bases) {
  function_ = function;
  bound_buffers_.clear();
  for (uint32_t i = 0; i < kernel_.buffer_count; ++i) {
    bound_buffers_.push_back({&kernel_.buffers[i], bases[i]});
  }
  bodies_.emplace(builder_, bound_buffers_, half_conversions_);
}

Status KernelIrBuilder::Nest(const std::vector<int64_t>& extents,
                             llvm::Value* first_from, llvm::Value* first_to,
                             std::vector<llvm::Value*>& indices,
                             const std::function<Status()>& emit,
                             size_t level) {
  if (level == extents.size()) return emit();
  llvm::Value* from = builder_.getInt64(0);
  llvm::Value* to = builder_.getInt64(extents[level]);
  if (level == 0 && first_from != nullptr) {
    // The launch's range lies within [0, extent] (launch_plan.h). Saying so
    // lets LLVM prove the index and index arithmetic over it non-negative
    // and bounded, so that divisions and remainders by the extents of a
    // reshape become unsigned and fold back into the index itself (a
    // flattening reshape is then a contiguous copy, not a gather).
    from = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, first_from,
                                          builder_.getInt64(0));
    to = builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, first_to, to);
  }
  return Loop(from, to, [&](llvm::Value* index) {
    indices[level] = index;
    return Nest(extents, first_from, first_to, indices, emit, level + 1);
  });
}

std::vector<llvm::Value*> KernelIrBuilder::Unravel(
    llvm::Value* linear, const std::vector<int64_t>& extents) {
  std::vector<llvm::Value*> indices(extents.size());
  for (size_t d = extents.size(); d-- > 0;) {
    llvm::Value* extent = builder_.getInt64(extents[d]);
    indices[d] = d == 0 ? linear : builder_.CreateURem(linear, extent);
    if (d > 0) linear = builder_.CreateUDiv(linear, extent);
  }
  return indices;
}

llvm::Value* KernelIrBuilder::EntrySlot(llvm::Type* type) {
  llvm::IRBuilder<> entry(&function_->getEntryBlock(),
                          function_->getEntryBlock().begin());
  return entry.CreateAlloca(type);
}

StatusOr<llvm::Value*> KernelIrBuilder::CompareElements(
    const phal_kir_sort_t& sort, BodyEmitter& bodies, llvm::Value* base,
    llvm::Value* stride, llvm::Value* a, llvm::Value* b) {
  std::vector<IrValue> parameters;
  for (uint32_t i = 0; i < sort.operand_count; ++i) {
    const uint32_t buffer = sort.operands[i];
    for (llvm::Value* element : {a, b}) {
      llvm::Value* linear =
          builder_.CreateAdd(base, builder_.CreateMul(element, stride));
      parameters.push_back(bodies.Load(kernel_.buffers[buffer].element_type,
                                       bodies.ElementAddress(buffer, linear)));
    }
  }
  PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                        bodies.Emit(sort.comparator, nullptr, parameters));
  return results[0].real;
}

Status KernelIrBuilder::Loop(llvm::Value* from, llvm::Value* to,
                             const Emitter& emit, llvm::Value* step) {
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
  index->addIncoming(
      builder_.CreateNSWAdd(index, step ? step : builder_.getInt64(1)),
      builder_.GetInsertBlock());
  builder_.CreateBr(header);
  builder_.SetInsertPoint(exit);
  return OkStatus();
}

llvm::Value* KernelIrBuilder::Linear(const std::vector<llvm::Value*>& indices,
                                     const std::vector<int64_t>& extents) {
  llvm::Value* linear = builder_.getInt64(0);
  for (size_t d = 0; d < extents.size(); ++d) {
    linear = builder_.CreateAdd(
        builder_.CreateMul(linear, builder_.getInt64(extents[d])), indices[d]);
  }
  return linear;
}

Status KernelIrBuilder::StoreResults(const phal_kir_body_t& body,
                                     const std::vector<IrValue>& results,
                                     const uint32_t* outputs,
                                     llvm::Value* linear) {
  for (uint32_t i = 0; i < body.result_count; ++i) {
    bodies_->Store(ResultType(body, i), results[i],
                   bodies_->ElementAddress(outputs[i], linear));
  }
  return OkStatus();
}

StatusOr<IrValue> KernelIrBuilder::MultiplyAdd(phal_element_type_t type,
                                               IrValue sum, IrValue a,
                                               IrValue b) {
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

std::vector<llvm::Value*> KernelIrBuilder::GatherOperandIndex(
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
    llvm::Value* start = builder_.CreateIntCast(raw.real, builder_.getInt64Ty(),
                                                IsSigned(indices.element_type));
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
        indices_dim < gather.index_vector_dim ? indices_dim : indices_dim - 1);
    const auto d = static_cast<size_t>(gather.operand_batching_dims[i]);
    result[d] = builder_.CreateAdd(result[d], batch[component]);
  }
  uint32_t offset = 0;
  for (uint32_t d = 0; d < operand.rank; ++d) {
    if (contains(gather.collapsed_slice_dims, gather.collapsed_slice_dims_count,
                 d) ||
        contains(gather.operand_batching_dims,
                 gather.operand_batching_dims_count, d)) {
      continue;
    }
    const auto output_dim = static_cast<size_t>(gather.offset_dims[offset++]);
    result[d] = builder_.CreateAdd(result[d], out[output_dim]);
  }
  return result;
}

std::vector<llvm::Value*> KernelIrBuilder::ScatterResultIndex(
    const phal_kir_scatter_t& scatter,
    const std::vector<llvm::Value*>& update) {
  const phal_kir_buffer_t& operand = kernel_.buffers[scatter.operand];
  const phal_kir_buffer_t& indices = kernel_.buffers[scatter.scatter_indices];
  auto contains = [](const int64_t* values, uint32_t count, int64_t value) {
    return std::find(values, values + count, value) != values + count;
  };
  std::vector<llvm::Value*> batch;  // update dimensions not in the window
  for (uint32_t d = 0; d < kernel_.buffers[scatter.updates].rank; ++d) {
    if (!contains(scatter.update_window_dims, scatter.update_window_dims_count,
                  d)) {
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
    const IrValue raw =
        bodies_->Load(indices.element_type,
                      bodies_->ElementAddress(scatter.scatter_indices, linear));
    const auto d = static_cast<size_t>(scatter.scatter_dims_to_operand_dims[k]);
    result[d] = builder_.CreateIntCast(raw.real, builder_.getInt64Ty(),
                                       IsSigned(indices.element_type));
  }
  for (uint32_t i = 0; i < scatter.input_batching_dims_count; ++i) {
    const int64_t indices_dim = scatter.scatter_indices_batching_dims[i];
    const auto component = static_cast<size_t>(
        indices_dim < scatter.index_vector_dim ? indices_dim : indices_dim - 1);
    const auto d = static_cast<size_t>(scatter.input_batching_dims[i]);
    result[d] = builder_.CreateAdd(result[d], batch[component]);
  }
  uint32_t window = 0;
  for (uint32_t d = 0; d < operand.rank; ++d) {
    if (contains(scatter.inserted_window_dims,
                 scatter.inserted_window_dims_count, d) ||
        contains(scatter.input_batching_dims, scatter.input_batching_dims_count,
                 d)) {
      continue;
    }
    const auto update_dim =
        static_cast<size_t>(scatter.update_window_dims[window++]);
    result[d] = builder_.CreateAdd(result[d], update[update_dim]);
  }
  return result;
}

StatusOr<IrValue> KernelIrBuilder::ConvSum(
    const phal_kir_conv_t& conv, const std::vector<llvm::Value*>& out) {
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
      builder_.CreateMul(batch_group, builder_.getInt64(output_batch)), batch);

  std::vector<int64_t> loop_extents = {kernel_features};
  for (uint32_t s = 0; s < conv.spatial_count; ++s) {
    loop_extents.push_back(weights.dims[conv.kernel_spatial_dimensions[s]]);
  }
  std::vector<llvm::Value*> loop(loop_extents.size());
  auto accumulate = [&]() -> Status {
    std::vector<llvm::Value*> input_index(input.rank),
        kernel_index(weights.rank);
    input_index[static_cast<size_t>(conv.input_batch_dimension)] = input_batch;
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
              builder_.CreateAnd(
                  builder_.CreateICmpEQ(builder_.CreateSRem(position, dilation),
                                        builder_.getInt64(0)),
                  builder_.CreateICmpSLT(element, builder_.getInt64(extent)))));
      input_index[static_cast<size_t>(conv.input_spatial_dimensions[s])] =
          element;
    }
    llvm::LLVMContext& context = builder_.getContext();
    auto* add = llvm::BasicBlock::Create(context, "tap", function_);
    auto* next = llvm::BasicBlock::Create(context, "next", function_);
    builder_.CreateCondBr(valid, add, next);
    builder_.SetInsertPoint(add);
    const std::vector<int64_t> input_dims(input.dims, input.dims + input.rank);
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
  PHAL_RETURN_IF_ERROR(Nest(loop_extents, nullptr, nullptr, loop, accumulate));
  return IrValue{builder_.CreateLoad(compute, real_slot),
                 imag_slot ? builder_.CreateLoad(compute, imag_slot) : nullptr};
}

std::vector<int64_t> KernelIrBuilder::BufferDims(uint32_t buffer) const {
  const phal_kir_buffer_t& b = kernel_.buffers[buffer];
  return std::vector<int64_t>(b.dims, b.dims + b.rank);
}

llvm::Value* KernelIrBuilder::Offset3(const int64_t* strides, llvm::Value* b,
                                      llvm::Value* x, llvm::Value* y) {
  return builder_.CreateAdd(
      builder_.CreateAdd(builder_.CreateMul(b, builder_.getInt64(strides[0])),
                         builder_.CreateMul(x, builder_.getInt64(strides[1]))),
      builder_.CreateMul(y, builder_.getInt64(strides[2])));
}

Status KernelIrBuilder::If(llvm::Value* condition,
                           const std::function<Status()>& then,
                           const std::function<Status()>& otherwise) {
  llvm::LLVMContext& context = builder_.getContext();
  auto* then_block = llvm::BasicBlock::Create(context, "then", function_);
  auto* else_block = otherwise
                         ? llvm::BasicBlock::Create(context, "else", function_)
                         : nullptr;
  auto* done = llvm::BasicBlock::Create(context, "endif", function_);
  builder_.CreateCondBr(condition, then_block, else_block ? else_block : done);
  builder_.SetInsertPoint(then_block);
  PHAL_RETURN_IF_ERROR(then());
  builder_.CreateBr(done);
  if (else_block) {
    builder_.SetInsertPoint(else_block);
    PHAL_RETURN_IF_ERROR(otherwise());
    builder_.CreateBr(done);
  }
  builder_.SetInsertPoint(done);
  return OkStatus();
}

void KernelIrBuilder::GatherElement(const phal_kir_gather_t& gather,
                                    const std::vector<llvm::Value*>& out,
                                    llvm::Value* out_linear) {
  const phal_element_type_t type = kernel_.buffers[gather.operand].element_type;
  const std::vector<llvm::Value*> source = GatherOperandIndex(gather, out);
  const IrValue value = bodies_->Load(
      type, bodies_->ElementAddress(
                gather.operand, Linear(source, BufferDims(gather.operand))));
  bodies_->Store(kernel_.buffers[gather.output].element_type, value,
                 bodies_->ElementAddress(gather.output, out_linear));
}

Status KernelIrBuilder::ScatterElement(const phal_kir_scatter_t& scatter,
                                       const std::vector<llvm::Value*>& update,
                                       llvm::Value* update_linear) {
  const std::vector<int64_t> operand_dims = BufferDims(scatter.operand);
  const std::vector<llvm::Value*> target = ScatterResultIndex(scatter, update);
  llvm::Value* in_bounds = builder_.getTrue();
  for (size_t d = 0; d < target.size(); ++d) {
    in_bounds = builder_.CreateAnd(
        in_bounds,
        builder_.CreateICmpULT(target[d], builder_.getInt64(operand_dims[d])));
  }
  return If(in_bounds, [&]() -> Status {
    const phal_element_type_t type =
        kernel_.buffers[scatter.operand].element_type;
    llvm::Value* address =
        bodies_->ElementAddress(scatter.output, Linear(target, operand_dims));
    const IrValue parameters[] = {
        bodies_->Load(type, address),
        bodies_->Load(kernel_.buffers[scatter.updates].element_type,
                      bodies_->ElementAddress(scatter.updates, update_linear))};
    PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> combined,
                          bodies_->Emit(scatter.combiner, nullptr, parameters));
    bodies_->Store(type, combined[0], address);
    return OkStatus();
  });
}

}  // namespace phal::llvm_emitter
