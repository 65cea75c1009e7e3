#include "sdk/emitters/llvm/kernel_emitter.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/body_emitter.h"
#include "sdk/emitters/llvm/kernel_ir_builder.h"
#include "sdk/emitters/llvm/runtime_functions.h"
#include "sdk/kir/kernel_visit.h"
#include "sdk/kir/reduce_geometry.h"

namespace phal::llvm_emitter {
namespace {

constexpr int64_t kCopyChunkBytes = int64_t{1} << 20;

// Bytes of one dot sum as kernels hold it: 16-bit floats accumulate in f32.
int64_t SumBytes(phal_element_type_t type) {
  if (type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16) return 4;
  return StorageBytes(type);
}

// The parameter number a reducer node reads, or -1.
int ParameterOf(const phal_kir_body_t& body, uint32_t node) {
  const phal_kir_node_t& n = body.nodes[node];
  if (n.op != PHAL_KIR_OP_PARAMETER || n.attributes[0] < 0 ||
      n.attributes[0] > 1) {
    return -1;
  }
  return static_cast<int>(n.attributes[0]);
}

// The op of a reducer that is one binary op of its two parameters on f32 or
// f64 (either order), or nullopt.
std::optional<phal_kir_op_t> PlainFloatReducer(const phal_kir_body_t& reducer) {
  if (reducer.result_count != 1 || reducer.parameter_count != 2) {
    return std::nullopt;
  }
  const phal_kir_node_t& op = reducer.nodes[reducer.results[0]];
  if (op.operand_count != 2 ||
      (op.type != PHAL_ELEMENT_TYPE_F32 && op.type != PHAL_ELEMENT_TYPE_F64)) {
    return std::nullopt;
  }
  const int a = ParameterOf(reducer, reducer.operands[op.operand_begin]);
  const int b = ParameterOf(reducer, reducer.operands[op.operand_begin + 1]);
  if (a < 0 || b < 0 || a == b) return std::nullopt;
  return op.op;
}

// A plain f32/f64 sum may be regrouped: the specification leaves the order
// in which a reduce applies its reducer to the implementation, and LLVM's
// vectoriser then keeps partial sums (`reassoc` on the reducer's add). A
// plain maximum or minimum gives the same result in any order (NaN wins,
// -0 < +0), so it is computed in lanes of partial results that the SLP
// vectoriser turns into vector operations. Any other reducer (a compensated
// sum, a tuple, an argmax) applies in index order.
bool IsPlainFloatSum(const phal_kir_body_t& reducer) {
  return PlainFloatReducer(reducer) == PHAL_KIR_OP_ADD;
}

// The best of two f32/f64 values in the total order (-NaN < -inf < ... <
// inf < NaN): select(compare(a, b), a, b) with a GT/GE/LT/LE totalorder
// compare of the two parameters, either way round. Values equal in the
// total order have the same bits, so the reducer is a maximum (true) or a
// minimum (false) of the total order, associative and commutative; nullopt
// for other reducers.
std::optional<bool> TotalOrderMaximum(const phal_kir_body_t& reducer) {
  if (reducer.result_count != 1 || reducer.parameter_count != 2) {
    return std::nullopt;
  }
  const phal_kir_node_t& select = reducer.nodes[reducer.results[0]];
  if (select.op != PHAL_KIR_OP_SELECT || select.operand_count != 3 ||
      (select.type != PHAL_ELEMENT_TYPE_F32 &&
       select.type != PHAL_ELEMENT_TYPE_F64)) {
    return std::nullopt;
  }
  const uint32_t* operands = reducer.operands + select.operand_begin;
  const phal_kir_node_t& compare = reducer.nodes[operands[0]];
  if (compare.op != PHAL_KIR_OP_COMPARE || compare.operand_count != 2 ||
      compare.attributes[1] != PHAL_KIR_COMPARISON_TOTALORDER) {
    return std::nullopt;
  }
  const uint32_t* compared = reducer.operands + compare.operand_begin;
  const int a = ParameterOf(reducer, compared[0]);
  const int b = ParameterOf(reducer, compared[1]);
  const int taken = ParameterOf(reducer, operands[1]);
  const int other = ParameterOf(reducer, operands[2]);
  if (a < 0 || b < 0 || a == b || taken < 0 || other < 0 || taken == other) {
    return std::nullopt;
  }
  bool greater;
  switch (compare.attributes[0]) {
    case PHAL_KIR_COMPARE_GT:
    case PHAL_KIR_COMPARE_GE:
      greater = true;
      break;
    case PHAL_KIR_COMPARE_LT:
    case PHAL_KIR_COMPARE_LE:
      greater = false;
      break;
    default:
      return std::nullopt;
  }
  return taken == a ? greater : !greater;
}

// The value x for which op(x, y) = y for every y, NaN and signed zeros
// included, for a plain maximum or minimum reducer or one of the total
// order (whose identity is the NaN of the largest payload, sign set for a
// maximum, clear for a minimum); nullptr for others.
llvm::Constant* MinMaxIdentity(const phal_kir_body_t& reducer,
                               llvm::Type* type) {
  const std::optional<phal_kir_op_t> op = PlainFloatReducer(reducer);
  if (op == PHAL_KIR_OP_MAXIMUM) return llvm::ConstantFP::get(type, -HUGE_VAL);
  if (op == PHAL_KIR_OP_MINIMUM) return llvm::ConstantFP::get(type, HUGE_VAL);
  const std::optional<bool> maximum = TotalOrderMaximum(reducer);
  if (!maximum.has_value()) return nullptr;
  const unsigned bits = type->getPrimitiveSizeInBits();
  const llvm::APInt pattern = *maximum ? llvm::APInt::getAllOnes(bits)
                                       : llvm::APInt::getSignedMaxValue(bits);
  return llvm::ConstantFP::get(type->getContext(),
                               llvm::APFloat(type->getFltSemantics(), pattern));
}

// Partial results a plain maximum or minimum keeps per reduced row.
constexpr int64_t kMinMaxLanes = 16;
// Outputs of a reduction over rows of columns accumulated side by side,
// and the fewest columns for which that pays.
constexpr int64_t kColumnStrip = 64;
constexpr int64_t kColumnStripMinimum = 4;

// Builds the one kernel function of a module and the loops inside it.
class KernelBuilder : KernelIrBuilder {
 public:
  KernelBuilder(const phal_kernel_desc_t& kernel, const TargetHooks& target,
                llvm::LLVMContext& context)
      : KernelIrBuilder(kernel, target, context), target_(target) {
    llvm::Type* pointer = builder_.getPtrTy();
    llvm::Type* i64 = builder_.getInt64Ty();
    auto* type = llvm::FunctionType::get(builder_.getVoidTy(),
                                         {pointer, i64, i64, pointer}, false);
    llvm::Function* function = llvm::Function::Create(
        type, llvm::Function::ExternalLinkage, kKernelSymbol, module_.get());
    function->setDoesNotThrow();
    builder_.SetInsertPoint(
        llvm::BasicBlock::Create(context, "entry", function));
    begin_ = function->getArg(1);
    end_ = function->getArg(2);
    dot_sums_ = function->getArg(3);
    std::vector<llvm::Value*> bases;
    for (uint32_t i = 0; i < kernel.buffer_count; ++i) {
      llvm::Value* slot =
          builder_.CreateConstInBoundsGEP1_64(pointer, function->getArg(0), i);
      bases.push_back(builder_.CreateLoad(pointer, slot));
    }
    Bind(function, bases);
  }

  StatusOr<EmittedKernel> Emit() {
    PHAL_RETURN_IF_ERROR(VisitKernel(
        kernel_, [this](const auto& kind) { return EmitKind(kind); }));
    builder_.CreateRetVoid();
    plan_.kind = kernel_.kind;
    plan_.buffer_count = kernel_.buffer_count;
    return EmittedKernel{std::move(module_), plan_};
  }

 private:
  // Runs `body` over nothing (a rank-0 space) as one split unit.
  Status Once(const std::function<Status()>& body) {
    return Loop(begin_, end_, [&](llvm::Value*) { return body(); });
  }

  Status EmitKind(phal_kernel_kind_t kind) {
    return UnimplementedKernelKind("the LLVM emitter", kind);
  }
  Status EmitKind(const phal_kir_fft_t&) {
    return UnimplementedKernelKind("the LLVM emitter", PHAL_KERNEL_KIND_FFT);
  }
  Status EmitKind(const phal_kir_linalg_t&) {
    return UnimplementedKernelKind("the LLVM emitter", PHAL_KERNEL_KIND_LINALG);
  }

  Status EmitKind(const phal_kir_loop_t& loop) {
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
    if (dims.empty()) return Once(body);
    if (ReadsTransposed(loop.body, dims)) return TiledNest(dims, indices, body);
    const std::vector<int64_t> cuts = InnerCuts(loop.body, dims);
    if (!cuts.empty()) return CutNest(dims, cuts, indices, body);
    return Nest(dims, begin_, end_, indices, body);
  }

  // The most pieces the innermost loop is cut into, and the most body
  // nodes all its pieces may hold together.
  static constexpr size_t kMostInnerPieces = 16;
  static constexpr size_t kMostCutNodes = 4096;

  // Where the value of some comparison or clamp of `body` changes along the
  // last dimension of `dims` (rank 2 or more, whose innermost loop has
  // constant bounds): each comparison or clamp of the last index plus a
  // constant against constants (a pad's bounds, a concatenation's pieces,
  // a shifted read) changes at one index. Sorted, within (0, extent);
  // empty when there are none or too many.
  static std::vector<int64_t> InnerCuts(const phal_kir_body_t& body,
                                        const std::vector<int64_t>& dims) {
    const size_t rank = dims.size();
    if (rank < 2) return {};
    const int64_t extent = dims[rank - 1];
    // offset[i]: node i is the last index plus offset[i]; value[i]: node
    // i is that integer constant.
    std::vector<std::optional<int64_t>> offset(body.node_count);
    std::vector<std::optional<int64_t>> value(body.node_count);
    std::vector<int64_t> cuts;
    const auto operand = [&](const phal_kir_node_t& node, uint32_t k) {
      return body.operands[node.operand_begin + k];
    };
    for (uint32_t i = 0; i < body.node_count; ++i) {
      const phal_kir_node_t& node = body.nodes[i];
      const bool integer = node.type == PHAL_ELEMENT_TYPE_S64 ||
                           node.type == PHAL_ELEMENT_TYPE_S32;
      if (node.op == PHAL_KIR_OP_INDEX &&
          node.attributes[0] == static_cast<int64_t>(rank - 1)) {
        offset[i] = 0;
      } else if (node.op == PHAL_KIR_OP_CONSTANT && integer) {
        if (node.type == PHAL_ELEMENT_TYPE_S64) {
          value[i] = static_cast<int64_t>(node.constant[0]);
        } else {
          value[i] =
              static_cast<int32_t>(static_cast<uint32_t>(node.constant[0]));
        }
      } else if ((node.op == PHAL_KIR_OP_ADD ||
                  node.op == PHAL_KIR_OP_SUBTRACT) &&
                 integer && node.operand_count == 2) {
        const uint32_t a = operand(node, 0), b = operand(node, 1);
        const bool add = node.op == PHAL_KIR_OP_ADD;
        if (offset[a] && value[b]) {
          offset[i] = add ? *offset[a] + *value[b] : *offset[a] - *value[b];
        } else if (add && value[a] && offset[b]) {
          offset[i] = *value[a] + *offset[b];
        }
      } else if (node.op == PHAL_KIR_OP_COMPARE && node.operand_count == 2) {
        uint32_t a = operand(node, 0), b = operand(node, 1);
        int64_t direction = node.attributes[0];
        if (value[a] && offset[b]) {
          std::swap(a, b);
          // v op x is x op' v.
          static constexpr int64_t kFlipped[] = {
              PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARE_NE, PHAL_KIR_COMPARE_GT,
              PHAL_KIR_COMPARE_GE, PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARE_LE};
          if (direction < 0 || direction > 5) continue;
          direction = kFlipped[direction];
        }
        if (!offset[a] || !value[b]) continue;
        // i + c op v: at i = v - c the value changes (LT, GE), or at
        // v - c + 1 (LE, GT); both for EQ and NE.
        const int64_t at = *value[b] - *offset[a];
        if (direction != PHAL_KIR_COMPARE_LE &&
            direction != PHAL_KIR_COMPARE_GT) {
          cuts.push_back(at);
        }
        if (direction != PHAL_KIR_COMPARE_LT &&
            direction != PHAL_KIR_COMPARE_GE) {
          cuts.push_back(at + 1);
        }
      } else if (node.op == PHAL_KIR_OP_CLAMP && integer &&
                 node.operand_count == 3) {
        const uint32_t low = operand(node, 0), x = operand(node, 1),
                       high = operand(node, 2);
        if (!offset[x] || !value[low] || !value[high]) continue;
        cuts.push_back(*value[low] - *offset[x]);
        cuts.push_back(*value[high] - *offset[x] + 1);
      }
    }
    std::sort(cuts.begin(), cuts.end());
    cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
    std::erase_if(cuts, [&](int64_t cut) { return cut <= 0 || cut >= extent; });
    if (cuts.size() + 1 > kMostInnerPieces ||
        (cuts.size() + 1) * body.node_count > kMostCutNodes) {
      return {};
    }
    return cuts;
  }

  // Nest's loops with the innermost one cut at `cuts` into loops of
  // constant bounds, one after the other, the body emitted in each: within
  // a piece every comparison InnerCuts found has one value, which LLVM
  // folds from the piece's bounds, so a shifted or padded read becomes a
  // contiguous one the loop vectorizes.
  Status CutNest(const std::vector<int64_t>& dims,
                 const std::vector<int64_t>& cuts,
                 std::vector<llvm::Value*>& indices,
                 const std::function<Status()>& body) {
    const size_t rank = dims.size();
    const std::vector<int64_t> outer_dims(dims.begin(), dims.end() - 1);
    std::vector<llvm::Value*> outer(outer_dims.size());
    return Nest(outer_dims, begin_, end_, outer, [&]() -> Status {
      std::copy(outer.begin(), outer.end(), indices.begin());
      int64_t from = 0;
      for (size_t piece = 0; piece <= cuts.size(); ++piece) {
        const int64_t to = piece < cuts.size() ? cuts[piece] : dims[rank - 1];
        PHAL_RETURN_IF_ERROR(Loop(builder_.getInt64(from),
                                  builder_.getInt64(to),
                                  [&](llvm::Value* index) {
                                    indices[rank - 1] = index;
                                    return body();
                                  }));
        from = to;
      }
      return OkStatus();
    });
  }

  // Tiles of the last two dimensions of a loop that reads a transposed
  // buffer: kTransposeTile rows by kTransposeTile columns, so that the
  // columns a tile reads stay in cache for all its rows.
  static constexpr int64_t kTransposeTile = 32;

  // Whether `body`, over `dims`, reads some buffer transposed: the index
  // of the space's last dimension selects one of the buffer's outer
  // dimensions while another value selects its last one, so consecutive
  // iterations read a column. Such a loop runs in tiles (TiledNest) when
  // both of its last two dimensions hold a tile or more.
  static bool ReadsTransposed(const phal_kir_body_t& body,
                              const std::vector<int64_t>& dims) {
    const size_t rank = dims.size();
    if (rank < 2 || dims[rank - 1] < kTransposeTile ||
        dims[rank - 2] < kTransposeTile) {
      return false;
    }
    const auto is_last_index = [&](uint32_t node) {
      const phal_kir_node_t& n = body.nodes[node];
      return n.op == PHAL_KIR_OP_INDEX &&
             n.attributes[0] == static_cast<int64_t>(rank - 1);
    };
    for (uint32_t i = 0; i < body.node_count; ++i) {
      const phal_kir_node_t& node = body.nodes[i];
      if (node.op != PHAL_KIR_OP_READ || node.operand_count < 2) continue;
      const uint32_t* operands = body.operands + node.operand_begin;
      if (is_last_index(operands[node.operand_count - 1])) continue;
      for (uint32_t d = 0; d + 1 < node.operand_count; ++d) {
        if (is_last_index(operands[d])) return true;
      }
    }
    return false;
  }

  // Nest's loops with the last two dimensions tiled: the dimensions before
  // them as Nest runs them, then tiles of rows, tiles of columns, and the
  // tile's rows and columns. The split dimension stays the first: for a
  // rank-2 space the tiles of rows cover [begin, end).
  Status TiledNest(const std::vector<int64_t>& dims,
                   std::vector<llvm::Value*>& indices,
                   const std::function<Status()>& body) {
    const size_t rank = dims.size();
    llvm::Value* tile = builder_.getInt64(kTransposeTile);
    llvm::Value* columns = builder_.getInt64(dims[rank - 1]);
    auto tiles = [&](llvm::Value* row_from, llvm::Value* row_to) -> Status {
      return Loop(
          row_from, row_to,
          [&](llvm::Value* row_tile) -> Status {
            llvm::Value* row_end = builder_.CreateBinaryIntrinsic(
                llvm::Intrinsic::smin, builder_.CreateNSWAdd(row_tile, tile),
                row_to);
            return Loop(
                builder_.getInt64(0), columns,
                [&](llvm::Value* column_tile) -> Status {
                  llvm::Value* column_end = builder_.CreateBinaryIntrinsic(
                      llvm::Intrinsic::smin,
                      builder_.CreateNSWAdd(column_tile, tile), columns);
                  return Loop(row_tile, row_end, [&](llvm::Value* row) {
                    indices[rank - 2] = row;
                    return Loop(column_tile, column_end,
                                [&](llvm::Value* column) {
                                  indices[rank - 1] = column;
                                  return body();
                                });
                  });
                },
                tile);
          },
          tile);
    };
    if (rank == 2) {
      // The launch's range lies within [0, rows] (as in Nest).
      return tiles(builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, begin_,
                                                  builder_.getInt64(0)),
                   builder_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, end_,
                                                  builder_.getInt64(dims[0])));
    }
    const std::vector<int64_t> outer_dims(dims.begin(), dims.end() - 2);
    std::vector<llvm::Value*> outer(outer_dims.size());
    return Nest(outer_dims, begin_, end_, outer, [&]() -> Status {
      std::copy(outer.begin(), outer.end(), indices.begin());
      return tiles(builder_.getInt64(0), builder_.getInt64(dims[rank - 2]));
    });
  }

  Status EmitKind(const phal_kir_reduce_t& reduce) {
    const uint32_t n = reduce.accumulator_count;
    const ReduceGeometry geometry = GeometryOf(reduce);
    const std::vector<int64_t>& kept_dims = geometry.kept_dims;
    const std::vector<int64_t>& reduced_dims = geometry.reduced_dims;
    std::vector<size_t> kept_positions, reduced_positions;
    for (uint32_t d = 0; d < reduce.rank; ++d) {
      (geometry.reduced[d] ? reduced_positions : kept_positions).push_back(d);
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
    const bool regroup = n == 1 && IsPlainFloatSum(reduce.reducer);
    // The values body at the current (kept, inner) point.
    auto emit_values = [&]() -> StatusOr<std::vector<IrValue>> {
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
      return bodies_->Emit(reduce.values, index, {});
    };
    auto accumulate = [&]() -> Status {
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> values, emit_values());
      std::vector<IrValue> parameters = load();
      parameters.insert(parameters.end(), values.begin(), values.end());
      llvm::IRBuilderBase::FastMathFlagGuard keep_flags(builder_);
      if (regroup) {
        llvm::FastMathFlags flags;
        flags.setAllowReassoc();
        builder_.setFastMathFlags(flags);
      }
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> next,
                            bodies_->Emit(reduce.reducer, nullptr, parameters));
      store(next);
      return OkStatus();
    };
    // A plain maximum or minimum along a contiguous innermost reduced
    // dimension runs in kMinMaxLanes lanes, each starting at the identity,
    // folded into the accumulator (which starts at the init value) at the
    // end; the last partial strip goes straight into the accumulator.
    llvm::Constant* identity =
        n == 1 ? MinMaxIdentity(reduce.reducer, bodies_->ComputeType(types[0]))
               : nullptr;
    const bool lanes = identity != nullptr && !reduced_dims.empty() &&
                       reduced_positions.back() == reduce.rank - 1 &&
                       reduced_dims.back() >= 2 * kMinMaxLanes;
    std::vector<llvm::Value*> lane_slots;
    if (lanes) {
      for (int64_t k = 0; k < kMinMaxLanes; ++k) {
        lane_slots.push_back(
            entry.CreateAlloca(bodies_->ComputeType(types[0])));
      }
    }
    auto apply = [&](llvm::Value* slot) -> Status {
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> values, emit_values());
      llvm::Type* type = bodies_->ComputeType(types[0]);
      std::vector<IrValue> parameters = {{builder_.CreateLoad(type, slot)}};
      parameters.insert(parameters.end(), values.begin(), values.end());
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> next,
                            bodies_->Emit(reduce.reducer, nullptr, parameters));
      builder_.CreateStore(next[0].real, slot);
      return OkStatus();
    };
    auto lane_rows = [&]() -> Status {
      llvm::Type* type = bodies_->ComputeType(types[0]);
      for (llvm::Value* slot : lane_slots) {
        builder_.CreateStore(identity, slot);
      }
      const int64_t extent = reduced_dims.back();
      const int64_t whole = extent - extent % kMinMaxLanes;
      std::vector<int64_t> outer_dims(reduced_dims.begin(),
                                      reduced_dims.end() - 1);
      std::vector<llvm::Value*> outer(outer_dims.size());
      PHAL_RETURN_IF_ERROR(Nest(outer_dims, nullptr, nullptr, outer, [&]() {
        std::copy(outer.begin(), outer.end(), inner.begin());
        PHAL_RETURN_IF_ERROR(Loop(
            builder_.getInt64(0), builder_.getInt64(whole),
            [&](llvm::Value* strip) -> Status {
              for (int64_t k = 0; k < kMinMaxLanes; ++k) {
                inner.back() =
                    builder_.CreateNSWAdd(strip, builder_.getInt64(k));
                PHAL_RETURN_IF_ERROR(apply(lane_slots[static_cast<size_t>(k)]));
              }
              return OkStatus();
            },
            builder_.getInt64(kMinMaxLanes)));
        return Loop(builder_.getInt64(whole), builder_.getInt64(extent),
                    [&](llvm::Value* rest) -> Status {
                      inner.back() = rest;
                      return apply(real_slots[0]);
                    });
      }));
      for (llvm::Value* slot : lane_slots) {
        std::vector<IrValue> parameters = {
            {builder_.CreateLoad(type, real_slots[0])},
            {builder_.CreateLoad(type, slot)}};
        PHAL_ASSIGN_OR_RETURN(
            std::vector<IrValue> next,
            bodies_->Emit(reduce.reducer, nullptr, parameters));
        builder_.CreateStore(next[0].real, real_slots[0]);
      }
      return OkStatus();
    };
    auto output_point = [&]() -> Status {
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> initial,
                            bodies_->Emit(reduce.init, nullptr, {}));
      store(initial);
      PHAL_RETURN_IF_ERROR(
          lanes ? lane_rows()
                : Nest(reduced_dims, nullptr, nullptr, inner, accumulate));
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
    // The innermost dimension kept (a reduction over rows of columns, as
    // batch statistics and bias gradients are): strips of kColumnStrip
    // outputs along it accumulate side by side, one reduced point at a
    // time, so the values are read along contiguous memory, in the same
    // order per output as one output at a time would.
    const bool columns =
        n == 1 && !IsComplex(types[0]) && !kept_dims.empty() &&
        !reduced_dims.empty() &&
        kept_positions.back() == static_cast<size_t>(reduce.rank) - 1 &&
        kept_dims.back() >= kColumnStripMinimum;
    if (columns) {
      llvm::Type* type = bodies_->ComputeType(types[0]);
      llvm::Type* strip_type = llvm::ArrayType::get(type, kColumnStrip);
      llvm::Value* strip = entry.CreateAlloca(strip_type);
      auto slot = [&](llvm::Value* j) {
        return builder_.CreateInBoundsGEP(strip_type, strip,
                                          {builder_.getInt64(0), j});
      };
      // Outputs first .. first + count of the innermost kept dimension.
      auto strip_of_columns = [&](llvm::Value* first,
                                  llvm::Value* count) -> Status {
        llvm::Value* zero = builder_.getInt64(0);
        PHAL_RETURN_IF_ERROR(Loop(zero, count, [&](llvm::Value* j) -> Status {
          PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> initial,
                                bodies_->Emit(reduce.init, nullptr, {}));
          builder_.CreateStore(initial[0].real, slot(j));
          return OkStatus();
        }));
        PHAL_RETURN_IF_ERROR(Nest(reduced_dims, nullptr, nullptr, inner, [&]() {
          return Loop(zero, count, [&](llvm::Value* j) -> Status {
            kept.back() = builder_.CreateNSWAdd(first, j);
            PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> values, emit_values());
            std::vector<IrValue> parameters = {
                {builder_.CreateLoad(type, slot(j))}};
            parameters.insert(parameters.end(), values.begin(), values.end());
            PHAL_ASSIGN_OR_RETURN(
                std::vector<IrValue> next,
                bodies_->Emit(reduce.reducer, nullptr, parameters));
            builder_.CreateStore(next[0].real, slot(j));
            return OkStatus();
          });
        }));
        return Loop(zero, count, [&](llvm::Value* j) -> Status {
          kept.back() = builder_.CreateNSWAdd(first, j);
          auto index = [&](int64_t d) -> llvm::Value* {
            return d >= 0 && static_cast<size_t>(d) < kept.size()
                       ? kept[static_cast<size_t>(d)]
                       : nullptr;
          };
          const std::vector<IrValue> sum = {
              {builder_.CreateLoad(type, slot(j))}};
          PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                                bodies_->Emit(reduce.epilogue, index, sum));
          return StoreResults(reduce.epilogue, results, reduce.outputs,
                              Linear(kept, kept_dims));
        });
      };
      // Strips over [from, to) of the innermost kept dimension.
      auto strips = [&](llvm::Value* from, llvm::Value* to) -> Status {
        return Loop(
            from, to,
            [&](llvm::Value* first) -> Status {
              llvm::Value* left = builder_.CreateSub(to, first);
              llvm::Value* width = builder_.getInt64(kColumnStrip);
              return strip_of_columns(
                  first, builder_.CreateSelect(
                             builder_.CreateICmpSLT(left, width), left, width));
            },
            builder_.getInt64(kColumnStrip));
      };
      if (kept_dims.size() == 1) return strips(begin_, end_);
      const std::vector<int64_t> outer_dims(kept_dims.begin(),
                                            kept_dims.end() - 1);
      std::vector<llvm::Value*> outer(outer_dims.size());
      return Nest(outer_dims, begin_, end_, outer, [&]() -> Status {
        std::copy(outer.begin(), outer.end(), kept.begin());
        return strips(builder_.getInt64(0),
                      builder_.getInt64(kept_dims.back()));
      });
    }
    return kept_dims.empty()
               ? Once(output_point)
               : Nest(kept_dims, begin_, end_, kept, output_point);
  }

  // The element type a GEMM of `type` reads an operand of `operand_type`
  // as: INVALID for `type` itself, the 16-bit float types an f32 GEMM
  // widens first, s8 and u8 for an s32 one, or null when the GEMM cannot
  // read it.
  static std::optional<phal_element_type_t> GemmOperandType(
      phal_element_type_t operand_type, phal_element_type_t type) {
    // s8 and u8 products summed in s32 (quantized models), exactly: the
    // cpu plugin's runtime sums them with VNNI instructions where the
    // processor has them, else in f32 GEMMs over short enough slices of k.
    if (type == PHAL_ELEMENT_TYPE_S32) {
      if (operand_type == PHAL_ELEMENT_TYPE_S8 ||
          operand_type == PHAL_ELEMENT_TYPE_U8) {
        return operand_type;
      }
      return std::nullopt;
    }
    if (operand_type == type) return PHAL_ELEMENT_TYPE_INVALID;
    if (type == PHAL_ELEMENT_TYPE_F32 &&
        (operand_type == PHAL_ELEMENT_TYPE_F16 ||
         operand_type == PHAL_ELEMENT_TYPE_BF16)) {
      return operand_type;
    }
    return std::nullopt;
  }

  void PlanGemm(const phal_kir_dot_t& dot) {
    const phal_element_type_t type = dot.accumulation_type;
    const std::optional<phal_element_type_t> lhs_type =
        GemmOperandType(kernel_.buffers[dot.lhs].element_type, type);
    const std::optional<phal_element_type_t> rhs_type =
        GemmOperandType(kernel_.buffers[dot.rhs].element_type, type);
    if (!target_.HasGemm(type) || !lhs_type || !rhs_type) return;
    GemmShape gemm;
    gemm.type = type;
    gemm.lhs_type = *lhs_type;
    gemm.rhs_type = *rhs_type;
    gemm.lhs = dot.lhs;
    gemm.rhs = dot.rhs;
    gemm.batch = dot.batch;
    gemm.m = dot.m;
    gemm.n = dot.n;
    gemm.k = dot.k;
    gemm.lhs_batch_stride = dot.lhs_strides[0];
    gemm.rhs_batch_stride = dot.rhs_strides[0];
    // The stride of a dimension of extent 1 is never used (the KIR may say
    // 0): A with one row, or B with one column, is taken as row-major or
    // transposed, whichever its other stride allows.
    int64_t lhs_strides[3] = {dot.lhs_strides[0], dot.lhs_strides[1],
                              dot.lhs_strides[2]};
    int64_t rhs_strides[3] = {dot.rhs_strides[0], dot.rhs_strides[1],
                              dot.rhs_strides[2]};
    if (dot.m == 1) {
      lhs_strides[1] = lhs_strides[2] == 1 ? std::max<int64_t>(1, dot.k) : 1;
    }
    if (dot.n == 1) {
      rhs_strides[2] = rhs_strides[1] == 1 ? std::max<int64_t>(1, dot.k) : 1;
    }
    // A is m x k: row-major with unit column stride, or its transpose.
    if (lhs_strides[2] == 1 && lhs_strides[1] >= std::max<int64_t>(1, dot.k)) {
      gemm.lhs_leading = lhs_strides[1];
    } else if (lhs_strides[1] == 1 &&
               lhs_strides[2] >= std::max<int64_t>(1, dot.m)) {
      gemm.lhs_transposed = 1;
      gemm.lhs_leading = lhs_strides[2];
    } else {
      return;
    }
    if (rhs_strides[2] == 1 && rhs_strides[1] >= std::max<int64_t>(1, dot.n)) {
      gemm.rhs_leading = rhs_strides[1];
    } else if (rhs_strides[1] == 1 &&
               rhs_strides[2] >= std::max<int64_t>(1, dot.k)) {
      gemm.rhs_transposed = 1;
      gemm.rhs_leading = rhs_strides[2];
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
      return Offset3(strides, b, x, y);
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

  Status EmitKind(const phal_kir_dot_t& dot) {
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
    PHAL_ASSIGN_OR_RETURN(
        llvm::Value * before,
        CompareElements(sort, bodies, compare->getArg(1), compare->getArg(2),
                        compare->getArg(3), compare->getArg(4)));
    builder_.CreateRet(before);
    return compare;
  }

  // The keys of a comparator that is a strict comparison of one operand
  // (compare LT or GT of parameters 2i and 2i+1, or of both canonicalized
  // as JAX's float comparators do), or of one and then, on
  // equality, another (or(less_0, and(equal_0, less_1))), each a total
  // order on f32 or an s32 or u32 comparison: [operand, SortKeyKind,
  // descending] per key. Empty for any other comparator.
  std::vector<int64_t> SortKeys(const phal_kir_sort_t& sort) const {
    const phal_kir_body_t& body = sort.comparator;
    if (body.result_count != 1) return {};
    const auto operand = [&](uint32_t node, uint32_t k) {
      return body.operands[body.nodes[node].operand_begin + k];
    };
    const auto parameter = [&](uint32_t node) -> int64_t {
      const phal_kir_node_t& n = body.nodes[node];
      return n.op == PHAL_KIR_OP_PARAMETER ? n.attributes[0] : -1;
    };
    const auto f32_constant = [&](uint32_t node, uint32_t bits) {
      const phal_kir_node_t& n = body.nodes[node];
      return n.op == PHAL_KIR_OP_CONSTANT && n.type == PHAL_ELEMENT_TYPE_F32 &&
             static_cast<uint32_t>(n.constant[0]) == bits;
    };
    const auto float_compare = [&](uint32_t node, int64_t direction) {
      const phal_kir_node_t& n = body.nodes[node];
      return n.op == PHAL_KIR_OP_COMPARE && n.operand_count == 2 &&
             n.attributes[0] == direction &&
             n.attributes[1] == PHAL_KIR_COMPARISON_FLOAT;
    };
    // The parameter a compared value is, itself or canonicalized as JAX
    // writes its float sort comparators: select(x != x, NaN, select(x ==
    // 0, 0, x)), every NaN the quiet NaN and -0 as +0.
    const auto source = [&](uint32_t node, bool* canonical) -> int64_t {
      *canonical = false;
      const int64_t direct = parameter(node);
      if (direct >= 0) return direct;
      const phal_kir_node_t& outer = body.nodes[node];
      if (outer.op != PHAL_KIR_OP_SELECT || outer.operand_count != 3) return -1;
      const uint32_t is_nan = operand(node, 0);
      const uint32_t inner = operand(node, 2);
      if (!float_compare(is_nan, PHAL_KIR_COMPARE_NE) ||
          !f32_constant(operand(node, 1), 0x7FC00000u) ||
          body.nodes[inner].op != PHAL_KIR_OP_SELECT ||
          body.nodes[inner].operand_count != 3) {
        return -1;
      }
      const uint32_t is_zero = operand(inner, 0);
      const int64_t x = parameter(operand(inner, 2));
      if (x < 0 || !float_compare(is_zero, PHAL_KIR_COMPARE_EQ) ||
          !f32_constant(operand(inner, 1), 0) ||
          parameter(operand(is_nan, 0)) != x ||
          parameter(operand(is_nan, 1)) != x ||
          parameter(operand(is_zero, 0)) != x ||
          !f32_constant(operand(is_zero, 1), 0)) {
        return -1;
      }
      *canonical = true;
      return x;
    };
    // The two parameters a comparison node compares, if it is one of
    // parameters 2i and 2i+1 of a key type, with `directions` allowed.
    struct Compared {
      int64_t left = -1, right = -1, direction = 0, kind = 0;
    };
    const auto compared = [&](uint32_t node) -> std::optional<Compared> {
      const phal_kir_node_t& n = body.nodes[node];
      if (n.op != PHAL_KIR_OP_COMPARE || n.operand_count != 2) {
        return std::nullopt;
      }
      bool left_canonical = false;
      bool right_canonical = false;
      Compared c{source(operand(node, 0), &left_canonical),
                 source(operand(node, 1), &right_canonical), n.attributes[0],
                 0};
      if (c.left < 0 || c.right < 0 || c.left / 2 != c.right / 2 ||
          c.left == c.right || left_canonical != right_canonical ||
          static_cast<uint32_t>(c.left / 2) >= sort.operand_count) {
        return std::nullopt;
      }
      const phal_element_type_t type =
          kernel_.buffers[sort.operands[c.left / 2]].element_type;
      const int64_t comparison = n.attributes[1];
      if (type == PHAL_ELEMENT_TYPE_F32 &&
          comparison == PHAL_KIR_COMPARISON_TOTALORDER) {
        c.kind = left_canonical ? kSortKeyF32CanonicalTotalOrder
                                : kSortKeyF32TotalOrder;
      } else if (left_canonical) {
        return std::nullopt;
      } else if (type == PHAL_ELEMENT_TYPE_S32 &&
                 comparison == PHAL_KIR_COMPARISON_SIGNED) {
        c.kind = kSortKeyS32;
      } else if (type == PHAL_ELEMENT_TYPE_U32 &&
                 comparison == PHAL_KIR_COMPARISON_UNSIGNED) {
        c.kind = kSortKeyU32;
      } else {
        return std::nullopt;
      }
      return c;
    };
    // [operand, kind, descending] of a strict comparison, or empty.
    const auto key = [&](uint32_t node) -> std::vector<int64_t> {
      const std::optional<Compared> c = compared(node);
      if (!c || (c->direction != PHAL_KIR_COMPARE_LT &&
                 c->direction != PHAL_KIR_COMPARE_GT)) {
        return {};
      }
      // Left sorts first when it is the greater: descending; the operands
      // the other way round flip that.
      const bool greater = c->direction == PHAL_KIR_COMPARE_GT;
      return {c->left / 2, c->kind, (c->left < c->right) == greater ? 1 : 0};
    };
    const uint32_t root = body.results[0];
    std::vector<int64_t> first = key(root);
    if (!first.empty()) return first;
    const phal_kir_node_t& either = body.nodes[root];
    if (either.op != PHAL_KIR_OP_OR || either.operand_count != 2) return {};
    first = key(operand(root, 0));
    const uint32_t tie = operand(root, 1);
    if (first.empty() || body.nodes[tie].op != PHAL_KIR_OP_AND ||
        body.nodes[tie].operand_count != 2) {
      return {};
    }
    const std::optional<Compared> equal = compared(operand(tie, 0));
    std::vector<int64_t> second = key(operand(tie, 1));
    if (!equal || equal->direction != PHAL_KIR_COMPARE_EQ ||
        equal->left / 2 != first[0] || equal->kind != first[1] ||
        second.empty() || second[0] == first[0]) {
      return {};
    }
    first.insert(first.end(), second.begin(), second.end());
    return first;
  }

  // Slices along `dimension` are split over the range; each is sorted by
  // phal_rt_sort (runtime_functions.h) with the emitted comparator, or by
  // phal_rt_sort_keyed on the keys of a comparator that only compares keys
  // (SortKeys).
  Status EmitKind(const phal_kir_sort_t& sort) {
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
    const std::vector<int64_t> keys = SortKeys(sort);
    if (!keys.empty()) {
      description.push_back(keys.size() / 3);
      description.insert(description.end(), keys.begin(), keys.end());
    }
    llvm::Constant* table =
        llvm::ConstantDataArray::get(builder_.getContext(), description);
    auto* global = new llvm::GlobalVariable(*module_, table->getType(), true,
                                            llvm::GlobalValue::PrivateLinkage,
                                            table, "phal_sort_description");
    llvm::Type* pointer = builder_.getPtrTy();
    llvm::Type* i64 = builder_.getInt64Ty();
    if (!keys.empty()) {
      llvm::FunctionCallee sort_by_keys = module_->getOrInsertFunction(
          "phal_rt_sort_keyed",
          llvm::FunctionType::get(builder_.getVoidTy(),
                                  {pointer, i64, i64, pointer}, false));
      builder_.CreateCall(sort_by_keys,
                          {function_->getArg(0), begin_, end_, global});
      return OkStatus();
    }
    llvm::FunctionCallee sort_slices = module_->getOrInsertFunction(
        "phal_rt_sort",
        llvm::FunctionType::get(builder_.getVoidTy(),
                                {pointer, i64, i64, pointer, pointer}, false));
    builder_.CreateCall(sort_slices,
                        {function_->getArg(0), begin_, end_, global, compare});
    return OkStatus();
  }

  // A loop over the output; each element reads one operand element.
  Status EmitKind(const phal_kir_gather_t& gather) {
    const std::vector<int64_t> dims = BufferDims(gather.output);
    plan_.split_extent = dims.empty() ? 1 : dims[0];
    plan_.work_per_split =
        dims.empty()
            ? 1
            : Product(dims.data() + 1, static_cast<uint32_t>(dims.size() - 1));
    std::vector<llvm::Value*> out(dims.size());
    auto element = [&]() -> Status {
      GatherElement(gather, out, Linear(out, dims));
      return OkStatus();
    };
    return dims.empty() ? Once(element)
                        : Nest(dims, begin_, end_, out, element);
  }

  // One unit of work, on one thread: updates to one element are applied in
  // the order of the updates, and no two threads race on an element. The
  // output starts as a copy of the operand unless they are one buffer.
  Status EmitKind(const phal_kir_scatter_t& scatter) {
    const phal_kir_buffer_t& operand = kernel_.buffers[scatter.operand];
    const std::vector<int64_t> update_dims = BufferDims(scatter.updates);
    plan_.split_extent = 1;
    // In place, the operand is neither read nor copied.
    plan_.work_per_split =
        (scatter.output != scatter.operand ? ElementCount(operand) : 0) +
        ElementCount(kernel_.buffers[scatter.updates]);
    return Once([&]() -> Status {
      if (scatter.output != scatter.operand) {
        builder_.CreateMemCpy(
            bound_buffers_[scatter.output].base, llvm::MaybeAlign(1),
            bound_buffers_[scatter.operand].base, llvm::MaybeAlign(1),
            builder_.getInt64(ElementCount(operand) *
                              StorageBytes(operand.element_type)));
      }
      std::vector<llvm::Value*> update(update_dims.size());
      return Nest(update_dims, nullptr, nullptr, update, [&] {
        return ScatterElement(scatter, update, Linear(update, update_dims));
      });
    });
  }

  // A convolution the runtime's GEMM computes (ConvGemmShape): f32 or f64
  // operands of the accumulation type (or f16 and bf16 ones of an f32
  // accumulation, GemmOperandType), channels-innermost layouts, one or
  // two spatial dimensions, no groups, no lhs dilation, no reversal.
  void PlanConvGemm(const phal_kir_conv_t& conv) {
    const phal_element_type_t type = conv.accumulation_type;
    const phal_kir_buffer_t& input = kernel_.buffers[conv.input];
    const phal_kir_buffer_t& weights = kernel_.buffers[conv.kernel];
    const phal_kir_buffer_t& output = kernel_.buffers[conv.output];
    const uint32_t s = conv.spatial_count;
    const std::optional<phal_element_type_t> input_type =
        GemmOperandType(input.element_type, type);
    const std::optional<phal_element_type_t> kernel_type =
        GemmOperandType(weights.element_type, type);
    if (!target_.HasGemm(type) || type == PHAL_ELEMENT_TYPE_S32 ||
        !input_type || !kernel_type || s < 1 || s > 2 ||
        conv.feature_group_count != 1 || conv.batch_group_count != 1 ||
        input.rank != s + 2 || weights.rank != s + 2 || output.rank != s + 2 ||
        conv.input_batch_dimension != 0 ||
        conv.input_feature_dimension != s + 1 ||
        conv.kernel_input_feature_dimension != s ||
        conv.kernel_output_feature_dimension != s + 1 ||
        conv.output_batch_dimension != 0 ||
        conv.output_feature_dimension != s + 1) {
      return;
    }
    for (uint32_t i = 0; i < s; ++i) {
      if (conv.input_spatial_dimensions[i] != i + 1 ||
          conv.kernel_spatial_dimensions[i] != i ||
          conv.output_spatial_dimensions[i] != i + 1 ||
          conv.lhs_dilation[i] != 1 || conv.window_reversal[i] != 0) {
        return;
      }
    }
    const bool two = s == 2;
    ConvGemmShape shape;
    shape.type = type;
    shape.input_type = *input_type;
    shape.kernel_type = *kernel_type;
    shape.input = conv.input;
    shape.kernel = conv.kernel;
    shape.batch = input.dims[0];
    shape.height = two ? input.dims[1] : 1;
    shape.width = input.dims[s];
    shape.channels = input.dims[s + 1];
    shape.kernel_height = two ? weights.dims[0] : 1;
    shape.kernel_width = weights.dims[s - 1];
    shape.features = weights.dims[s + 1];
    shape.out_height = two ? output.dims[1] : 1;
    shape.out_width = output.dims[s];
    shape.stride_h = two ? conv.window_strides[0] : 1;
    shape.stride_w = conv.window_strides[s - 1];
    shape.pad_h = two ? conv.padding[0] : 0;
    shape.pad_w = conv.padding[2 * (s - 1)];
    shape.dilation_h = two ? conv.rhs_dilation[0] : 1;
    shape.dilation_w = conv.rhs_dilation[s - 1];
    if (output.dims[0] != shape.batch || output.dims[s + 1] != shape.features) {
      return;
    }
    plan_.conv_gemm = shape;
  }

  // A loop over the output (split on its dimension 0); each element sums
  // its window directly, or takes the sum the runtime's GEMM left in
  // dot_sums, and applies the epilogue.
  Status EmitKind(const phal_kir_conv_t& conv) {
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
    PlanConvGemm(conv);
    const bool sums_given = plan_.conv_gemm.type != PHAL_ELEMENT_TYPE_INVALID;
    if (sums_given) {
      plan_.dot_sums_bytes = Product(output.dims, output.rank) * SumBytes(type);
    }
    std::vector<llvm::Value*> out(dims.size());
    auto element = [&]() -> Status {
      llvm::Value* linear = Linear(out, dims);
      IrValue sum;
      if (sums_given) {
        sum = LoadSum(type, SumAddress(type, linear));
      } else {
        PHAL_ASSIGN_OR_RETURN(sum, ConvSum(conv, out));
      }
      llvm::Value* address = bodies_->ElementAddress(conv.output, linear);
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
    return Nest(dims, begin_, end_, out, element);
  }

  Status EmitKind(const phal_kir_copy_t& copy) {
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

  const TargetHooks& target_;
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
