#include "sdk/emitters/llvm/spmd_kernel_emitter.h"

#include <algorithm>
#include <string>
#include <vector>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/InstIterator.h>
#include <llvm/IR/Module.h>

#include "sdk/emitters/llvm/kernel_emitter.h"
#include "sdk/emitters/llvm/kernel_ir_builder.h"
#include "sdk/emitters/llvm/launch_plan.h"
#include "sdk/kir/facts.h"
#include "sdk/kir/kernel_visit.h"
#include "sdk/kir/reduce_geometry.h"

namespace phal::llvm_emitter {
namespace {

constexpr uint32_t kLoopBlock = 128;
// Grid-stride loops need no more blocks than this to fill any GPU of today;
// each thread then takes several elements.
constexpr uint64_t kMaxLoopBlocks = 4096;
constexpr uint32_t kReduceBlock = 128;
constexpr uint32_t kDotTile = 16;
constexpr uint32_t kSortBlock = 64;
// Reductions this short, or with this many outputs, run one thread per
// output (in the reference's order); others a block per output.
constexpr int64_t kSequentialReduction = 256;
constexpr int64_t kSequentialOutputs = 1024;
// CUDA's limit on gridDim.y and gridDim.z, which AMDGPU meets too.
constexpr int64_t kMaxGridYZ = 65535;

uint64_t RoundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

class SpmdBuilder : KernelIrBuilder {
 public:
  SpmdBuilder(const phal_kernel_desc_t& kernel, const SpmdTarget& target,
              llvm::LLVMContext& context)
      : KernelIrBuilder(kernel, target, context), target_(target) {}

  StatusOr<SpmdKernel> Emit() {
    if (kernel_.kind == PHAL_KERNEL_KIND_SORT) {
      launch_.scratch_bytes = SortScratchBytes(*kernel_.u.sort);
    }
    const unsigned pointers =
        kernel_.buffer_count + (launch_.scratch_bytes > 0 ? 1 : 0);
    SpmdKernelFunction entry =
        target_.CreateKernel(*module_, kKernelSymbol, pointers, builder_);
    entry.function->setDoesNotThrow();
    if (launch_.scratch_bytes > 0) scratch_ = entry.pointers.back();
    entry.pointers.resize(kernel_.buffer_count);
    Bind(entry.function, entry.pointers);
    PHAL_RETURN_IF_ERROR(VisitKernel(
        kernel_, [this](const auto& kind) { return EmitKind(kind); }));
    builder_.CreateRetVoid();
    CallExactRemainders();
    return SpmdKernel{std::move(module_), launch_};
  }

 private:
  llvm::Value* I64(llvm::Value* value) {
    return builder_.CreateZExt(value, builder_.getInt64Ty());
  }

  llvm::Value* GlobalThread() {
    return I64(
        builder_.CreateAdd(builder_.CreateMul(target_.BlockIndex(builder_, 0),
                                              target_.BlockSize(builder_, 0)),
                           target_.ThreadIndex(builder_, 0)));
  }

  llvm::Value* ThreadCount() {
    return I64(builder_.CreateMul(target_.GridSize(builder_, 0),
                                  target_.BlockSize(builder_, 0)));
  }

  // A 1-D grid of blocks of `block` threads for a grid-stride loop over
  // `total` items.
  void Launch1D(int64_t total, uint32_t block) {
    block = std::min<uint32_t>(block, target_.MaxBlockSize());
    const auto items = static_cast<uint64_t>(std::max<int64_t>(total, 0));
    launch_.block[0] = block;
    launch_.grid[0] = static_cast<uint32_t>(
        std::min<uint64_t>(RoundUp(items, block) / block, kMaxLoopBlocks));
  }

  // for (i = this thread; i < total; i += every thread) emit(i).
  Status GridStride(int64_t total, const Emitter& emit) {
    return Loop(GlobalThread(), builder_.getInt64(total), emit, ThreadCount());
  }

  static BodyEmitter::IndexSource IndexOf(
      const std::vector<llvm::Value*>& indices) {
    return [&indices](int64_t d) -> llvm::Value* {
      return d >= 0 && static_cast<size_t>(d) < indices.size()
                 ? indices[static_cast<size_t>(d)]
                 : nullptr;
    };
  }

  // ---- values held in stack slots ----------------------------------------

  // One slot per component of each of `types` (complex: two).
  struct Slots {
    std::vector<phal_element_type_t> types;
    std::vector<llvm::Value*> real, imag;
  };

  Slots MakeSlots(const std::vector<phal_element_type_t>& types) {
    Slots slots;
    slots.types = types;
    for (phal_element_type_t type : types) {
      llvm::Type* compute = bodies_->ComputeType(type);
      slots.real.push_back(EntrySlot(compute));
      slots.imag.push_back(IsComplex(type) ? EntrySlot(compute) : nullptr);
    }
    return slots;
  }

  std::vector<IrValue> LoadSlots(const Slots& slots) {
    std::vector<IrValue> values;
    for (size_t j = 0; j < slots.types.size(); ++j) {
      llvm::Type* compute = bodies_->ComputeType(slots.types[j]);
      values.push_back({builder_.CreateLoad(compute, slots.real[j]),
                        slots.imag[j]
                            ? builder_.CreateLoad(compute, slots.imag[j])
                            : nullptr});
    }
    return values;
  }

  void StoreSlots(const Slots& slots, const std::vector<IrValue>& values) {
    for (size_t j = 0; j < slots.types.size(); ++j) {
      builder_.CreateStore(values[j].real, slots.real[j]);
      if (slots.imag[j]) builder_.CreateStore(values[j].imag, slots.imag[j]);
    }
  }

  // ---- LOOP --------------------------------------------------------------

  Status EmitKind(phal_kernel_kind_t kind) {
    return UnimplementedKernelKind("the SPMD emitter", kind);
  }
  Status EmitKind(const phal_kir_fft_t&) {
    return UnimplementedKernelKind("the SPMD emitter", PHAL_KERNEL_KIND_FFT);
  }
  Status EmitKind(const phal_kir_linalg_t&) {
    return UnimplementedKernelKind("the SPMD emitter", PHAL_KERNEL_KIND_LINALG);
  }

  Status EmitKind(const phal_kir_loop_t& loop) {
    const std::vector<int64_t> dims(loop.dims, loop.dims + loop.rank);
    const int64_t total = Product(loop.dims, loop.rank);
    Launch1D(total, kLoopBlock);
    return GridStride(total, [&](llvm::Value* linear) -> Status {
      const std::vector<llvm::Value*> indices = Unravel(linear, dims);
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                            bodies_->Emit(loop.body, IndexOf(indices), {}));
      return StoreResults(loop.body, results, loop.outputs, linear);
    });
  }

  // ---- REDUCE ------------------------------------------------------------

  struct ReduceShape : ReduceGeometry {
    std::vector<phal_element_type_t> types;
  };

  // The reduce's full index from its kept and reduced parts.
  static std::vector<llvm::Value*> FullIndex(
      const ReduceShape& shape, const std::vector<llvm::Value*>& kept,
      const std::vector<llvm::Value*>& inner) {
    std::vector<llvm::Value*> full;
    size_t next_kept = 0, next_inner = 0;
    for (bool reduced : shape.reduced) {
      full.push_back(reduced ? inner[next_inner++] : kept[next_kept++]);
    }
    return full;
  }

  StatusOr<std::vector<IrValue>> Combine(const phal_kir_reduce_t& reduce,
                                         const std::vector<IrValue>& left,
                                         const std::vector<IrValue>& right) {
    std::vector<IrValue> parameters = left;
    parameters.insert(parameters.end(), right.begin(), right.end());
    return bodies_->Emit(reduce.reducer, nullptr, parameters);
  }

  Status StoreReduced(const phal_kir_reduce_t& reduce,
                      const std::vector<llvm::Value*>& kept,
                      const std::vector<IrValue>& accumulators,
                      llvm::Value* linear) {
    PHAL_ASSIGN_OR_RETURN(
        std::vector<IrValue> results,
        bodies_->Emit(reduce.epilogue, IndexOf(kept), accumulators));
    return StoreResults(reduce.epilogue, results, reduce.outputs, linear);
  }

  Status EmitKind(const phal_kir_reduce_t& reduce) {
    ReduceShape shape{GeometryOf(reduce), {}};
    for (uint32_t j = 0; j < reduce.accumulator_count; ++j) {
      shape.types.push_back(ResultType(reduce.init, j));
    }
    if (shape.inner <= kSequentialReduction ||
        shape.outputs >= kSequentialOutputs) {
      return SequentialReduce(reduce, shape);
    }
    return BlockReduce(reduce, shape);
  }

  // One thread per output point, reducing in ascending order from the init
  // value: the reference's order, so short and edge-valued reductions agree
  // with it exactly.
  Status SequentialReduce(const phal_kir_reduce_t& reduce,
                          const ReduceShape& shape) {
    Launch1D(shape.outputs, kLoopBlock);
    const Slots acc = MakeSlots(shape.types);
    return GridStride(shape.outputs, [&](llvm::Value* output) -> Status {
      const std::vector<llvm::Value*> kept = Unravel(output, shape.kept_dims);
      PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> init,
                            bodies_->Emit(reduce.init, nullptr, {}));
      StoreSlots(acc, init);
      PHAL_RETURN_IF_ERROR(
          Loop(builder_.getInt64(0), builder_.getInt64(shape.inner),
               [&](llvm::Value* q) -> Status {
                 const std::vector<llvm::Value*> full =
                     FullIndex(shape, kept, Unravel(q, shape.reduced_dims));
                 PHAL_ASSIGN_OR_RETURN(
                     std::vector<IrValue> values,
                     bodies_->Emit(reduce.values, IndexOf(full), {}));
                 PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> next,
                                       Combine(reduce, LoadSlots(acc), values));
                 StoreSlots(acc, next);
                 return OkStatus();
               }));
      return StoreReduced(reduce, kept, LoadSlots(acc), output);
    });
  }

  // `value` from the lane `delta` above in the warp; narrow integers travel
  // as i32.
  llvm::Value* Shuffle(llvm::Value* value, unsigned delta) {
    llvm::Type* type = value->getType();
    if (type->isIntegerTy() && type->getIntegerBitWidth() < 32) {
      llvm::Value* wide = builder_.CreateZExt(value, builder_.getInt32Ty());
      return builder_.CreateTrunc(target_.ShuffleDown(builder_, wide, delta),
                                  type);
    }
    return target_.ShuffleDown(builder_, value, delta);
  }

  // Shared arrays of `count` slots per accumulator component, and one byte
  // per slot saying whether it holds a value.
  struct SharedSlots {
    std::vector<llvm::Value*> real, imag;
    llvm::Value* valid = nullptr;
  };

  SharedSlots LayOutShared(const std::vector<phal_element_type_t>& types,
                           uint64_t count) {
    struct Part {
      llvm::Type* type;
      uint64_t offset;
    };
    std::vector<Part> parts;
    uint64_t bytes = 0;
    const llvm::DataLayout& layout = module_->getDataLayout();
    for (phal_element_type_t type : types) {
      llvm::Type* compute = bodies_->ComputeType(type);
      const uint64_t size = layout.getTypeAllocSize(compute);
      for (int part = 0; part < (IsComplex(type) ? 2 : 1); ++part) {
        parts.push_back({compute, bytes});
        bytes = RoundUp(bytes + size * count, 8);
      }
    }
    const uint64_t valid_offset = bytes;
    bytes += count;
    launch_.shared_bytes = static_cast<uint32_t>(RoundUp(bytes, 16));
    llvm::Value* base =
        target_.SharedMemory(builder_, *module_, launch_.shared_bytes);
    auto at = [&](uint64_t offset) {
      return builder_.CreateConstInBoundsGEP1_64(builder_.getInt8Ty(), base,
                                                 offset);
    };
    SharedSlots shared;
    size_t next = 0;
    for (phal_element_type_t type : types) {
      shared.real.push_back(at(parts[next++].offset));
      shared.imag.push_back(IsComplex(type) ? at(parts[next++].offset)
                                            : nullptr);
    }
    shared.valid = at(valid_offset);
    return shared;
  }

  std::vector<IrValue> LoadShared(const SharedSlots& shared,
                                  const std::vector<phal_element_type_t>& types,
                                  llvm::Value* slot) {
    std::vector<IrValue> values;
    for (size_t j = 0; j < types.size(); ++j) {
      llvm::Type* compute = bodies_->ComputeType(types[j]);
      auto load = [&](llvm::Value* array) {
        return builder_.CreateLoad(
            compute, builder_.CreateInBoundsGEP(compute, array, slot));
      };
      values.push_back({load(shared.real[j]),
                        shared.imag[j] ? load(shared.imag[j]) : nullptr});
    }
    return values;
  }

  void StoreShared(const SharedSlots& shared,
                   const std::vector<phal_element_type_t>& types,
                   llvm::Value* slot, const std::vector<IrValue>& values) {
    for (size_t j = 0; j < types.size(); ++j) {
      llvm::Type* compute = bodies_->ComputeType(types[j]);
      builder_.CreateStore(values[j].real, builder_.CreateInBoundsGEP(
                                               compute, shared.real[j], slot));
      if (shared.imag[j]) {
        builder_.CreateStore(
            values[j].imag,
            builder_.CreateInBoundsGEP(compute, shared.imag[j], slot));
      }
    }
  }

  llvm::Value* ValidAt(const SharedSlots& shared, llvm::Value* slot) {
    return builder_.CreateInBoundsGEP(builder_.getInt8Ty(), shared.valid, slot);
  }

  // acc (with `have` saying whether it holds anything) absorbs `other`
  // (likewise): the reducer when both hold values, a copy when only
  // `other` does.
  Status Absorb(const phal_kir_reduce_t& reduce, const Slots& acc,
                llvm::Value* have, const std::vector<IrValue>& other) {
    return If(
        builder_.CreateLoad(builder_.getInt1Ty(), have),
        [&]() -> Status {
          PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> next,
                                Combine(reduce, LoadSlots(acc), other));
          StoreSlots(acc, next);
          return OkStatus();
        },
        [&]() -> Status {
          StoreSlots(acc, other);
          builder_.CreateStore(builder_.getTrue(), have);
          return OkStatus();
        });
  }

  // One block per output: its threads reduce strided parts of the reduced
  // space, combine within warps by shuffles (where the target has them),
  // then as a tree in shared memory. StableHLO leaves the association open.
  Status BlockReduce(const phal_kir_reduce_t& reduce,
                     const ReduceShape& shape) {
    uint32_t block = 1;
    while (block * 2 <= std::min<int64_t>({kReduceBlock, target_.MaxBlockSize(),
                                           shape.inner})) {
      block *= 2;
    }
    const uint32_t warp = target_.WarpSize();
    const bool shuffles = warp > 1 && block % warp == 0;
    const uint32_t slots = shuffles ? block / warp : block;
    launch_.grid[0] = static_cast<uint32_t>(shape.outputs);
    launch_.block[0] = block;

    const SharedSlots shared = LayOutShared(shape.types, slots);
    llvm::Value* lid = I64(target_.ThreadIndex(builder_, 0));
    llvm::Value* group = I64(target_.BlockIndex(builder_, 0));
    const std::vector<llvm::Value*> kept = Unravel(group, shape.kept_dims);
    const Slots acc = MakeSlots(shape.types);
    llvm::Value* have = EntrySlot(builder_.getInt1Ty());
    // Accumulators start as the init values so that they are defined even
    // in threads that reduce nothing (`have` stays false there).
    PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> init,
                          bodies_->Emit(reduce.init, nullptr, {}));
    StoreSlots(acc, init);
    builder_.CreateStore(builder_.getFalse(), have);
    PHAL_RETURN_IF_ERROR(Loop(
        lid, builder_.getInt64(shape.inner),
        [&](llvm::Value* q) -> Status {
          const std::vector<llvm::Value*> full =
              FullIndex(shape, kept, Unravel(q, shape.reduced_dims));
          PHAL_ASSIGN_OR_RETURN(
              std::vector<IrValue> values,
              bodies_->Emit(reduce.values, IndexOf(full), {}));
          return Absorb(reduce, acc, have, values);
        },
        builder_.getInt64(block)));

    llvm::Value* slot = lid;
    llvm::Value* writer = builder_.getTrue();
    if (shuffles) {
      llvm::Value* lane = builder_.CreateURem(lid, builder_.getInt64(warp));
      for (unsigned delta = warp / 2; delta > 0; delta /= 2) {
        std::vector<IrValue> other;
        for (const IrValue& value : LoadSlots(acc)) {
          other.push_back({Shuffle(value.real, delta),
                           value.imag ? Shuffle(value.imag, delta) : nullptr});
        }
        llvm::Value* other_have =
            Shuffle(builder_.CreateLoad(builder_.getInt1Ty(), have), delta);
        llvm::Value* take = builder_.CreateAnd(
            builder_.CreateICmpULT(
                builder_.CreateAdd(lane, builder_.getInt64(delta)),
                builder_.getInt64(warp)),
            other_have);
        PHAL_RETURN_IF_ERROR(
            If(take, [&]() { return Absorb(reduce, acc, have, other); }));
      }
      slot = builder_.CreateUDiv(lid, builder_.getInt64(warp));
      writer = builder_.CreateICmpEQ(lane, builder_.getInt64(0));
    }
    PHAL_RETURN_IF_ERROR(If(writer, [&]() -> Status {
      StoreShared(shared, shape.types, slot, LoadSlots(acc));
      builder_.CreateStore(
          builder_.CreateZExt(builder_.CreateLoad(builder_.getInt1Ty(), have),
                              builder_.getInt8Ty()),
          ValidAt(shared, slot));
      return OkStatus();
    }));
    target_.Barrier(builder_);

    for (uint32_t stride = slots / 2; stride > 0; stride /= 2) {
      llvm::Value* right = builder_.CreateAdd(lid, builder_.getInt64(stride));
      llvm::Value* active =
          builder_.CreateICmpULT(lid, builder_.getInt64(stride));
      PHAL_RETURN_IF_ERROR(If(active, [&]() -> Status {
        llvm::Value* right_valid = builder_.CreateICmpNE(
            builder_.CreateLoad(builder_.getInt8Ty(), ValidAt(shared, right)),
            builder_.getInt8(0));
        return If(right_valid, [&]() -> Status {
          // The reducer reads both sides before either is written.
          const std::vector<IrValue> left_values =
              LoadShared(shared, shape.types, lid);
          const std::vector<IrValue> right_values =
              LoadShared(shared, shape.types, right);
          llvm::Value* left_valid = builder_.CreateICmpNE(
              builder_.CreateLoad(builder_.getInt8Ty(), ValidAt(shared, lid)),
              builder_.getInt8(0));
          return If(
              left_valid,
              [&]() -> Status {
                PHAL_ASSIGN_OR_RETURN(
                    std::vector<IrValue> next,
                    Combine(reduce, left_values, right_values));
                StoreShared(shared, shape.types, lid, next);
                return OkStatus();
              },
              [&]() -> Status {
                StoreShared(shared, shape.types, lid, right_values);
                builder_.CreateStore(builder_.getInt8(1), ValidAt(shared, lid));
                return OkStatus();
              });
        });
      }));
      target_.Barrier(builder_);
    }

    return If(
        builder_.CreateICmpEQ(lid, builder_.getInt64(0)), [&]() -> Status {
          llvm::Value* zero = builder_.getInt64(0);
          llvm::Value* valid = builder_.CreateICmpNE(
              builder_.CreateLoad(builder_.getInt8Ty(), ValidAt(shared, zero)),
              builder_.getInt8(0));
          PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> first,
                                bodies_->Emit(reduce.init, nullptr, {}));
          StoreSlots(acc, first);
          PHAL_RETURN_IF_ERROR(If(valid, [&]() -> Status {
            PHAL_ASSIGN_OR_RETURN(
                std::vector<IrValue> next,
                Combine(reduce, LoadSlots(acc),
                        LoadShared(shared, shape.types, zero)));
            StoreSlots(acc, next);
            return OkStatus();
          }));
          return StoreReduced(reduce, kept, LoadSlots(acc), group);
        });
  }

  // ---- DOT ---------------------------------------------------------------

  Status StoreThroughEpilogue(const phal_kir_body_t& epilogue,
                              phal_element_type_t sum_type, uint32_t output,
                              const std::vector<llvm::Value*>& index,
                              IrValue sum, llvm::Value* linear) {
    llvm::Value* address = bodies_->ElementAddress(output, linear);
    if (epilogue.result_count == 0) {
      bodies_->Store(sum_type, sum, address);
      return OkStatus();
    }
    const IrValue parameters[] = {sum};
    PHAL_ASSIGN_OR_RETURN(std::vector<IrValue> results,
                          bodies_->Emit(epilogue, IndexOf(index), parameters));
    bodies_->Store(ResultType(epilogue, 0), results[0], address);
    return OkStatus();
  }

  // A tiled GEMM: each block computes a tile x tile square of the output,
  // staging tiles of both operands, converted to the accumulation type, in
  // shared memory (rows padded by one to spread banks).
  Status EmitKind(const phal_kir_dot_t& dot) {
    const phal_element_type_t type = dot.accumulation_type;
    uint32_t tile = kDotTile;
    while (tile > 1 && tile * tile > target_.MaxBlockSize()) tile /= 2;
    if (dot.batch > kMaxGridYZ || (dot.m + tile - 1) / tile > kMaxGridYZ) {
      return Unimplemented("the SPMD emitter tiles dots of at most " +
                           std::to_string(kMaxGridYZ) + " batches and " +
                           std::to_string(kMaxGridYZ * tile) + " rows");
    }
    launch_.grid[0] = static_cast<uint32_t>(RoundUp(dot.n, tile) / tile);
    launch_.grid[1] = static_cast<uint32_t>(RoundUp(dot.m, tile) / tile);
    launch_.grid[2] = static_cast<uint32_t>(dot.batch);
    launch_.block[0] = tile;
    launch_.block[1] = tile;
    const uint32_t pitch = tile + 1;
    const std::vector<phal_element_type_t> tile_types = {type, type};
    const SharedSlots tiles = LayOutShared(tile_types, uint64_t{tile} * pitch);

    llvm::Value* lx = I64(target_.ThreadIndex(builder_, 0));
    llvm::Value* ly = I64(target_.ThreadIndex(builder_, 1));
    llvm::Value* tile_size = builder_.getInt64(tile);
    llvm::Value* col = builder_.CreateAdd(
        builder_.CreateMul(I64(target_.BlockIndex(builder_, 0)), tile_size),
        lx);
    llvm::Value* row = builder_.CreateAdd(
        builder_.CreateMul(I64(target_.BlockIndex(builder_, 1)), tile_size),
        ly);
    llvm::Value* batch = I64(target_.BlockIndex(builder_, 2));
    llvm::Value* m = builder_.getInt64(dot.m);
    llvm::Value* n = builder_.getInt64(dot.n);
    llvm::Value* k = builder_.getInt64(dot.k);
    auto offset = [&](const int64_t* strides, llvm::Value* x, llvm::Value* y) {
      return Offset3(strides, batch, x, y);
    };
    auto tile_slot = [&](llvm::Value* y, llvm::Value* x) {
      return builder_.CreateAdd(builder_.CreateMul(y, builder_.getInt64(pitch)),
                                x);
    };
    llvm::Type* compute = bodies_->ComputeType(type);
    const IrValue zero{
        llvm::Constant::getNullValue(compute),
        IsComplex(type) ? llvm::Constant::getNullValue(compute) : nullptr};
    const Slots sum = MakeSlots({type});
    StoreSlots(sum, {zero});
    // Tile `which` (0: A, 1: B) gets the operand element at (x, y), or zero
    // outside the operand.
    auto stage = [&](int which, uint32_t buffer, const int64_t* strides,
                     llvm::Value* inside, llvm::Value* x, llvm::Value* y,
                     llvm::Value* slot) -> Status {
      SharedSlots one;
      one.real = {tiles.real[which]};
      one.imag = {tiles.imag[which]};
      const phal_element_type_t from = kernel_.buffers[buffer].element_type;
      return If(
          inside,
          [&]() -> Status {
            const IrValue value = bodies_->Load(
                from, bodies_->ElementAddress(buffer, offset(strides, x, y)));
            PHAL_ASSIGN_OR_RETURN(IrValue wide,
                                  bodies_->Convert(value, from, type));
            StoreShared(one, {type}, slot, {wide});
            return OkStatus();
          },
          [&]() -> Status {
            StoreShared(one, {type}, slot, {zero});
            return OkStatus();
          });
    };
    PHAL_RETURN_IF_ERROR(Loop(
        builder_.getInt64(0), k,
        [&](llvm::Value* k0) -> Status {
          llvm::Value* a_column = builder_.CreateAdd(k0, lx);
          llvm::Value* b_row = builder_.CreateAdd(k0, ly);
          llvm::Value* slot = tile_slot(ly, lx);
          PHAL_RETURN_IF_ERROR(
              stage(0, dot.lhs, dot.lhs_strides,
                    builder_.CreateAnd(builder_.CreateICmpULT(row, m),
                                       builder_.CreateICmpULT(a_column, k)),
                    row, a_column, slot));
          PHAL_RETURN_IF_ERROR(
              stage(1, dot.rhs, dot.rhs_strides,
                    builder_.CreateAnd(builder_.CreateICmpULT(b_row, k),
                                       builder_.CreateICmpULT(col, n)),
                    b_row, col, slot));
          target_.Barrier(builder_);
          PHAL_RETURN_IF_ERROR(Loop(
              builder_.getInt64(0), tile_size, [&](llvm::Value* kk) -> Status {
                SharedSlots a_tile, b_tile;
                a_tile.real = {tiles.real[0]};
                a_tile.imag = {tiles.imag[0]};
                b_tile.real = {tiles.real[1]};
                b_tile.imag = {tiles.imag[1]};
                const IrValue a =
                    LoadShared(a_tile, {type}, tile_slot(ly, kk))[0];
                const IrValue b =
                    LoadShared(b_tile, {type}, tile_slot(kk, lx))[0];
                PHAL_ASSIGN_OR_RETURN(
                    IrValue next, MultiplyAdd(type, LoadSlots(sum)[0], a, b));
                StoreSlots(sum, {next});
                return OkStatus();
              }));
          target_.Barrier(builder_);
          return OkStatus();
        },
        tile_size));
    llvm::Value* inside = builder_.CreateAnd(builder_.CreateICmpULT(row, m),
                                             builder_.CreateICmpULT(col, n));
    return If(inside, [&]() -> Status {
      llvm::Value* linear = builder_.CreateAdd(
          builder_.CreateMul(
              builder_.CreateAdd(builder_.CreateMul(batch, m), row), n),
          col);
      return StoreThroughEpilogue(dot.epilogue, type, dot.output,
                                  {batch, row, col}, LoadSlots(sum)[0], linear);
    });
  }

  // ---- CONV, GATHER ------------------------------------------------------

  Status EmitKind(const phal_kir_conv_t& conv) {
    const phal_kir_buffer_t& output = kernel_.buffers[conv.output];
    const std::vector<int64_t> dims(output.dims, output.dims + output.rank);
    const int64_t total = ElementCount(output);
    Launch1D(total, kLoopBlock);
    return GridStride(total, [&](llvm::Value* linear) -> Status {
      const std::vector<llvm::Value*> out = Unravel(linear, dims);
      PHAL_ASSIGN_OR_RETURN(IrValue sum, ConvSum(conv, out));
      return StoreThroughEpilogue(conv.epilogue, conv.accumulation_type,
                                  conv.output, out, sum, linear);
    });
  }

  Status EmitKind(const phal_kir_gather_t& gather) {
    const std::vector<int64_t> dims = BufferDims(gather.output);
    const int64_t total = ElementCount(kernel_.buffers[gather.output]);
    Launch1D(total, kLoopBlock);
    return GridStride(total, [&](llvm::Value* linear) -> Status {
      GatherElement(gather, Unravel(linear, dims), linear);
      return OkStatus();
    });
  }

  // ---- SCATTER -----------------------------------------------------------

  // One thread: updates to one element apply in the order of the updates,
  // as the reference applies them, whatever the combiner. The output starts
  // as a copy of the operand unless they are one buffer.
  Status EmitKind(const phal_kir_scatter_t& scatter) {
    const std::vector<int64_t> update_dims = BufferDims(scatter.updates);
    launch_.grid[0] = 1;
    launch_.block[0] = 1;
    if (scatter.output != scatter.operand) {
      PHAL_RETURN_IF_ERROR(CopyElements(scatter.operand, scatter.output,
                                        builder_.getInt64(0),
                                        builder_.getInt64(1)));
    }
    const int64_t total = ElementCount(kernel_.buffers[scatter.updates]);
    return Loop(builder_.getInt64(0), builder_.getInt64(total),
                [&](llvm::Value* linear) -> Status {
                  return ScatterElement(scatter, Unravel(linear, update_dims),
                                        linear);
                });
  }

  // ---- COPY --------------------------------------------------------------

  // Copies buffer `source` to `destination` (same byte size) in the widest
  // units that divide it, unit i by threads first, first + step, ...
  Status CopyElements(uint32_t source, uint32_t destination, llvm::Value* first,
                      llvm::Value* step) {
    const phal_kir_buffer_t& buffer = kernel_.buffers[source];
    const int64_t bytes =
        ElementCount(buffer) * StorageBytes(buffer.element_type);
    int64_t unit = 8;
    while (unit > 1 && bytes % unit != 0) unit /= 2;
    llvm::Type* type = builder_.getIntNTy(static_cast<unsigned>(unit * 8));
    llvm::Value* from = bound_buffers_[source].base;
    llvm::Value* to = bound_buffers_[destination].base;
    return Loop(
        first, builder_.getInt64(bytes / unit),
        [&](llvm::Value* i) -> Status {
          llvm::Value* value = builder_.CreateLoad(
              type, builder_.CreateInBoundsGEP(type, from, i));
          builder_.CreateStore(value, builder_.CreateInBoundsGEP(type, to, i));
          return OkStatus();
        },
        step);
  }

  Status EmitKind(const phal_kir_copy_t& copy) {
    const phal_kir_buffer_t& source = kernel_.buffers[copy.source];
    const int64_t bytes =
        ElementCount(source) * StorageBytes(source.element_type);
    int64_t unit = 8;
    while (unit > 1 && bytes % unit != 0) unit /= 2;
    Launch1D(bytes / unit, kLoopBlock);
    return CopyElements(copy.source, copy.destination, GlobalThread(),
                        ThreadCount());
  }

  // ---- SORT --------------------------------------------------------------

  struct SortShape {
    int64_t length = 0, inner = 1, slices = 0, element_bytes = 1;
    int64_t slice_scratch = 0;  // bytes of scratch per slice
  };

  SortShape ShapeOf(const phal_kir_sort_t& sort) const {
    const phal_kir_buffer_t& shape = kernel_.buffers[sort.operands[0]];
    const auto dimension = static_cast<uint32_t>(sort.dimension);
    SortShape s;
    s.length = shape.dims[dimension];
    s.inner = Product(shape.dims + dimension + 1, shape.rank - dimension - 1);
    s.slices = s.length == 0 ? 0 : Product(shape.dims, dimension) * s.inner;
    for (uint32_t i = 0; i < sort.operand_count; ++i) {
      s.element_bytes = std::max<int64_t>(
          s.element_bytes,
          StorageBytes(kernel_.buffers[sort.operands[i]].element_type));
    }
    // A permutation, its merge target, and a staging copy of one operand.
    s.slice_scratch = static_cast<int64_t>(
        RoundUp(static_cast<uint64_t>(s.length * (16 + s.element_bytes)), 16));
    return s;
  }

  uint64_t SortScratchBytes(const phal_kir_sort_t& sort) const {
    const SortShape s = ShapeOf(sort);
    return static_cast<uint64_t>(s.slices * s.slice_scratch);
  }

  // Merges runs [lo, mid) and [mid, hi) of permutation `from` into `to`,
  // taking from the right run only when its element sorts strictly before:
  // stable.
  Status Merge(const phal_kir_sort_t& sort, llvm::Value* base,
               llvm::Value* stride, llvm::Value* from, llvm::Value* to,
               llvm::Value* lo, llvm::Value* mid, llvm::Value* hi) {
    llvm::Type* i64 = builder_.getInt64Ty();
    llvm::Value* left = EntrySlot(i64);
    llvm::Value* right = EntrySlot(i64);
    llvm::Value* take_right = EntrySlot(builder_.getInt1Ty());
    builder_.CreateStore(lo, left);
    builder_.CreateStore(mid, right);
    auto element = [&](llvm::Value* permutation, llvm::Value* at) {
      return builder_.CreateLoad(
          i64, builder_.CreateInBoundsGEP(i64, permutation, at));
    };
    return Loop(lo, hi, [&](llvm::Value* out) -> Status {
      llvm::Value* i = builder_.CreateLoad(i64, left);
      llvm::Value* j = builder_.CreateLoad(i64, right);
      builder_.CreateStore(builder_.getFalse(), take_right);
      PHAL_RETURN_IF_ERROR(If(builder_.CreateICmpSLT(j, hi), [&]() -> Status {
        builder_.CreateStore(builder_.getTrue(), take_right);
        return If(builder_.CreateICmpSLT(i, mid), [&]() -> Status {
          PHAL_ASSIGN_OR_RETURN(
              llvm::Value * before,
              CompareElements(sort, *bodies_, base, stride, element(from, j),
                              element(from, i)));
          builder_.CreateStore(before, take_right);
          return OkStatus();
        });
      }));
      return If(
          builder_.CreateLoad(builder_.getInt1Ty(), take_right),
          [&]() -> Status {
            builder_.CreateStore(element(from, j),
                                 builder_.CreateInBoundsGEP(i64, to, out));
            builder_.CreateStore(builder_.CreateAdd(j, builder_.getInt64(1)),
                                 right);
            return OkStatus();
          },
          [&]() -> Status {
            builder_.CreateStore(element(from, i),
                                 builder_.CreateInBoundsGEP(i64, to, out));
            builder_.CreateStore(builder_.CreateAdd(i, builder_.getInt64(1)),
                                 left);
            return OkStatus();
          });
    });
  }

  // One thread per slice: a bottom-up stable merge sort of a permutation in
  // scratch memory, then every operand permuted alike through a staging
  // copy, so outputs may be the operands themselves.
  Status EmitKind(const phal_kir_sort_t& sort) {
    const SortShape s = ShapeOf(sort);
    Launch1D(s.slices, kSortBlock);
    int passes = 0;
    while ((int64_t{1} << passes) < s.length) ++passes;
    llvm::Type* i8 = builder_.getInt8Ty();
    llvm::Type* i64 = builder_.getInt64Ty();
    return GridStride(s.slices, [&](llvm::Value* slice) -> Status {
      llvm::Value* inner = builder_.getInt64(s.inner);
      llvm::Value* length = builder_.getInt64(s.length);
      llvm::Value* base = builder_.CreateAdd(
          builder_.CreateMul(builder_.CreateUDiv(slice, inner),
                             builder_.getInt64(s.length * s.inner)),
          builder_.CreateURem(slice, inner));
      llvm::Value* mine = builder_.CreateInBoundsGEP(
          i8, scratch_,
          builder_.CreateMul(slice, builder_.getInt64(s.slice_scratch)));
      llvm::Value* permutation = mine;
      llvm::Value* merged =
          builder_.CreateConstInBoundsGEP1_64(i8, mine, 8 * s.length);
      llvm::Value* staging =
          builder_.CreateConstInBoundsGEP1_64(i8, mine, 16 * s.length);
      PHAL_RETURN_IF_ERROR(
          Loop(builder_.getInt64(0), length, [&](llvm::Value* i) -> Status {
            builder_.CreateStore(
                i, builder_.CreateInBoundsGEP(i64, permutation, i));
            return OkStatus();
          }));
      PHAL_RETURN_IF_ERROR(Loop(
          builder_.getInt64(0), builder_.getInt64(passes),
          [&](llvm::Value* pass) -> Status {
            llvm::Value* even = builder_.CreateICmpEQ(
                builder_.CreateAnd(pass, builder_.getInt64(1)),
                builder_.getInt64(0));
            llvm::Value* from =
                builder_.CreateSelect(even, permutation, merged);
            llvm::Value* to = builder_.CreateSelect(even, merged, permutation);
            llvm::Value* width = builder_.CreateShl(builder_.getInt64(1), pass);
            return Loop(
                builder_.getInt64(0), length,
                [&](llvm::Value* lo) -> Status {
                  llvm::Value* mid = builder_.CreateBinaryIntrinsic(
                      llvm::Intrinsic::smin, builder_.CreateAdd(lo, width),
                      length);
                  llvm::Value* hi = builder_.CreateBinaryIntrinsic(
                      llvm::Intrinsic::smin,
                      builder_.CreateAdd(lo, builder_.CreateShl(width, 1)),
                      length);
                  return Merge(sort, base, inner, from, to, lo, mid, hi);
                },
                builder_.CreateShl(width, 1));
          }));
      llvm::Value* sorted = passes % 2 == 0 ? permutation : merged;
      for (uint32_t o = 0; o < sort.operand_count; ++o) {
        const uint32_t operand = sort.operands[o];
        const uint32_t output = sort.outputs[o];
        const int64_t bytes =
            StorageBytes(kernel_.buffers[operand].element_type);
        llvm::Type* unit = builder_.getIntNTy(static_cast<unsigned>(bytes * 8));
        auto at = [&](uint32_t buffer, llvm::Value* element) {
          return builder_.CreateInBoundsGEP(
              unit, bound_buffers_[buffer].base,
              builder_.CreateAdd(base, builder_.CreateMul(element, inner)));
        };
        PHAL_RETURN_IF_ERROR(
            Loop(builder_.getInt64(0), length, [&](llvm::Value* i) -> Status {
              builder_.CreateStore(
                  builder_.CreateLoad(unit, at(operand, i)),
                  builder_.CreateInBoundsGEP(unit, staging, i));
              return OkStatus();
            }));
        PHAL_RETURN_IF_ERROR(
            Loop(builder_.getInt64(0), length, [&](llvm::Value* i) -> Status {
              llvm::Value* source = builder_.CreateLoad(
                  i64, builder_.CreateInBoundsGEP(i64, sorted, i));
              builder_.CreateStore(
                  builder_.CreateLoad(
                      unit, builder_.CreateInBoundsGEP(unit, staging, source)),
                  at(output, i));
              return OkStatus();
            }));
      }
      return OkStatus();
    });
  }

  // ---- remainders --------------------------------------------------------

  // GPU backends lower `frem` as x - trunc(x / y) * y, which is not exact;
  // StableHLO's remainder is, as C's fmod is. Every frem becomes a call to
  // the runtime's exact fmod (phal_rt_fmod_f32/_f64).
  void CallExactRemainders() {
    std::vector<llvm::Instruction*> remainders;
    for (llvm::Instruction& instruction : llvm::instructions(*function_)) {
      if (instruction.getOpcode() == llvm::Instruction::FRem) {
        remainders.push_back(&instruction);
      }
    }
    for (llvm::Instruction* remainder : remainders) {
      llvm::Type* type = remainder->getType();
      const char* name =
          type->isDoubleTy() ? "phal_rt_fmod_f64" : "phal_rt_fmod_f32";
      llvm::FunctionCallee fmod = module_->getOrInsertFunction(
          name, llvm::FunctionType::get(type, {type, type}, false));
      builder_.SetInsertPoint(remainder);
      llvm::Value* exact = builder_.CreateCall(
          fmod, {remainder->getOperand(0), remainder->getOperand(1)});
      remainder->replaceAllUsesWith(exact);
      remainder->eraseFromParent();
    }
  }

  const SpmdTarget& target_;
  SpmdLaunch launch_;
  llvm::Value* scratch_ = nullptr;
};

}  // namespace

uint64_t SpmdSupportedKernelKinds() { return SupportedKernelKinds(); }

StatusOr<SpmdKernel> EmitSpmdKernel(const phal_kernel_desc_t& kernel,
                                    const SpmdTarget& target,
                                    llvm::LLVMContext& context) {
  PHAL_RETURN_IF_ERROR(
      CheckKernelKind(kernel, SpmdSupportedKernelKinds(), "the SPMD emitter"));
  PHAL_RETURN_IF_ERROR(CheckKernelStructure(kernel));
  SpmdBuilder builder(kernel, target, context);
  return builder.Emit();
}

}  // namespace phal::llvm_emitter
