// The kernel kinds as work-item programs:
//
//   LOOP     one work-item per element of the iteration space.
//   REDUCE   short reductions (or many outputs): one work-item per output,
//            in ascending order from the init value. Long ones: one
//            work-group per output; its work-items reduce strided parts of
//            the reduced space, then combine in shared memory as a tree
//            (StableHLO leaves the association open).
//   DOT      a tiled GEMM: 16x16 work-groups stage tiles of both operands
//            in shared memory, converted to the accumulation type.
//   CONV     one work-item per output element, summing its window.
//   GATHER   one work-item per output element.
//   SCATTER  one work-item: updates to one element apply in update order.
//   SORT     one work-item per slice: a stable merge sort of a permutation
//            in scratch memory, applied through copies of the slices (the
//            outputs may be the operands).
//   COPY     one work-item per byte.
#include "sdk/emitters/source/source_emitter.h"

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include "sdk/emitters/source/body_printer.h"
#include "sdk/kir/facts.h"
#include "sdk/kir/kernel_visit.h"
#include "sdk/kir/reduce_geometry.h"

namespace phal::source_emitter {
namespace {

constexpr uint64_t kLoopGroup = 64;
constexpr uint64_t kReduceGroup = 64;
constexpr uint64_t kDotTile = 16;
// Reductions this short, or with this many outputs, run one work-item per
// output (in the reference's order); others a work-group per output.
constexpr int64_t kSequentialReduction = 256;
constexpr int64_t kSequentialOutputs = 1024;

uint64_t RoundUp(uint64_t value, uint64_t multiple) {
  return (value + multiple - 1) / multiple * multiple;
}

int64_t Product(const int64_t* dims, uint32_t count) {
  int64_t product = 1;
  for (uint32_t i = 0; i < count; ++i) product *= dims[i];
  return product;
}

std::string L(int64_t value) { return std::to_string(value) + "l"; }

bool Contains(const int64_t* values, uint32_t count, int64_t value) {
  return std::find(values, values + count, value) != values + count;
}

class KernelPrinter {
 public:
  KernelPrinter(const phal_kernel_desc_t& kernel, const Dialect& dialect,
                const DeviceFeatures& features)
      : kernel_(kernel),
        p_(kernel, dialect, features),
        d_(dialect),
        long_(dialect.ComputeType(PHAL_ELEMENT_TYPE_S64)),
        pred_(dialect.ComputeType(PHAL_ELEMENT_TYPE_PRED)) {}

  StatusOr<SourceKernel> Emit() {
    PHAL_RETURN_IF_ERROR(CheckFp64());
    PHAL_RETURN_IF_ERROR(VisitKernel(
        kernel_, [this](const auto& kind) { return EmitKind(kind); }));
    std::vector<BufferParameter> buffers;
    for (uint32_t b = 0; b < kernel_.buffer_count; ++b) {
      buffers.push_back(BufferParameter{BodyPrinter::BufferName(b),
                                        kernel_.buffers[b].element_type,
                                        byte_buffers_});
    }
    PHAL_ASSIGN_OR_RETURN(out_.source,
                          p_.Finish(buffers, out_.launch.scratch_bytes > 0));
    return std::move(out_);
  }

 private:
  Status CheckFp64() const {
    for (uint32_t b = 0; b < kernel_.buffer_count; ++b) {
      const phal_element_type_t type = kernel_.buffers[b].element_type;
      if (!p_.features().fp64 &&
          (type == PHAL_ELEMENT_TYPE_F64 || type == PHAL_ELEMENT_TYPE_C128)) {
        return Unimplemented(std::string("the device has no f64 "
                                         "(cl_khr_fp64) for buffer ") +
                             std::to_string(b) + " of type " +
                             ElementTypeName(type));
      }
    }
    return OkStatus();
  }

  // `name`, an s64 constant (or variable) of `value`.
  void Index(const std::string& name, const std::string& value,
             bool constant = true) {
    p_.Line(d_.Declare(long_, name, value, constant));
  }
  std::string Pred(const char* value) const { return d_.Cast(pred_, value); }
  // `terms` joined by &&: true when there are none.
  static std::string All(const std::vector<std::string>& terms) {
    std::string all;
    for (const std::string& term : terms) {
      all += (all.empty() ? "" : " && ") + term;
    }
    return all.empty() ? "(0 == 0)" : all;
  }

  const phal_kir_buffer_t& Buffer(uint32_t b) const {
    return kernel_.buffers[b];
  }

  std::string Load(uint32_t b, const std::string& index) const {
    return d_.Load(Buffer(b).element_type, BodyPrinter::BufferName(b), index);
  }
  std::string Store(uint32_t b, const std::string& index,
                    const std::string& value) const {
    return d_.Store(Buffer(b).element_type, BodyPrinter::BufferName(b), index,
                    value);
  }

  // Launches `count` work-items in groups of `group` (one dimension).
  void Launch1D(uint64_t count, uint64_t group) {
    group = std::max<uint64_t>(
        1, std::min<uint64_t>(group, p_.features().max_work_group_size));
    out_.launch.dimensions = 1;
    out_.launch.global_size[0] = count == 0 ? 0 : RoundUp(count, group);
    out_.launch.local_size[0] = group;
  }

  // Declares `names[d]` as the position along dims[d] of `linear`
  // (row-major), in the printer's current scope.
  void Decompose(const std::string& linear, const std::vector<int64_t>& dims,
                 std::vector<std::string>* names) {
    names->assign(dims.size(), "");
    if (dims.empty()) return;
    const std::string rest = p_.Fresh("r");
    Index(rest, linear, false);
    for (size_t d = dims.size(); d-- > 0;) {
      (*names)[d] = p_.Fresh("i");
      if (d == 0) {
        Index((*names)[d], rest);
      } else {
        Index((*names)[d], rest + " % " + L(dims[d]));
        p_.Line(rest + " /= " + L(dims[d]) + ";");
      }
    }
  }

  static BodyPrinter::IndexFn IndexOf(const std::vector<std::string>& names) {
    return [names](int64_t d) -> std::string {
      return d >= 0 && static_cast<size_t>(d) < names.size()
                 ? names[static_cast<size_t>(d)]
                 : "";
    };
  }

  Status EmitKind(phal_kernel_kind_t kind) {
    return UnimplementedKernelKind("the source emitter", kind);
  }
  Status EmitKind(const phal_kir_fft_t&) {
    return UnimplementedKernelKind("the source emitter", PHAL_KERNEL_KIND_FFT);
  }
  Status EmitKind(const phal_kir_linalg_t&) {
    return UnimplementedKernelKind("the source emitter",
                                   PHAL_KERNEL_KIND_LINALG);
  }

  Status EmitKind(const phal_kir_loop_t& loop) {
    const std::vector<int64_t> dims(loop.dims, loop.dims + loop.rank);
    const int64_t total = Product(loop.dims, loop.rank);
    Launch1D(static_cast<uint64_t>(total), kLoopGroup);
    Index("gid", d_.GlobalId(0));
    p_.Line("if (gid >= " + L(total) + ") return;");
    std::vector<std::string> index;
    Decompose("gid", dims, &index);
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> results,
                          p_.Print(loop.body, IndexOf(index), {}));
    for (uint32_t i = 0; i < loop.output_count; ++i) {
      p_.Line(Store(loop.outputs[i], "gid", results[i]));
    }
    return OkStatus();
  }

  static phal_element_type_t ResultType(const phal_kir_body_t& body,
                                        uint32_t r) {
    return body.nodes[body.results[r]].type;
  }

  // Prints the reducer over accumulators `acc` and values `values`,
  // assigning the new accumulators to `target`.
  Status Combine(const phal_kir_reduce_t& reduce,
                 const std::vector<std::string>& acc,
                 const std::vector<std::string>& values,
                 const std::vector<std::string>& target) {
    std::vector<std::string> parameters = acc;
    parameters.insert(parameters.end(), values.begin(), values.end());
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> next,
                          p_.Print(reduce.reducer, nullptr, parameters));
    for (size_t j = 0; j < target.size(); ++j) {
      p_.Line(target[j] + " = " + next[j] + ";");
    }
    return OkStatus();
  }

  // A reduce's full index from its kept and reduced parts.
  static std::vector<std::string> FullIndex(
      const ReduceGeometry& g, const std::vector<std::string>& kept,
      const std::vector<std::string>& inner) {
    std::vector<std::string> full;
    size_t next_kept = 0, next_inner = 0;
    for (const bool reduced : g.reduced) {
      full.push_back(reduced ? inner[next_inner++] : kept[next_kept++]);
    }
    return full;
  }

  // One work-item per output point, reducing in ascending order from the
  // init value: the reference's order, so short and edge-valued reductions
  // agree with it exactly.
  Status SequentialReduce(const phal_kir_reduce_t& reduce,
                          const ReduceGeometry& g,
                          const std::vector<std::string>& types) {
    Launch1D(static_cast<uint64_t>(g.outputs), kLoopGroup);
    Index("gid", d_.GlobalId(0));
    p_.Line("if (gid >= " + L(g.outputs) + ") return;");
    std::vector<std::string> kept;
    Decompose("gid", g.kept_dims, &kept);
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> init,
                          p_.Print(reduce.init, nullptr, {}));
    std::vector<std::string> acc;
    for (size_t j = 0; j < types.size(); ++j) {
      acc.push_back("acc" + std::to_string(j));
      p_.Line(d_.Declare(types[j], acc[j], init[j], false));
    }
    p_.Open("for (" + long_ + " q = 0; q < " + L(g.inner) + "; ++q)");
    std::vector<std::string> inner_index;
    Decompose("q", g.reduced_dims, &inner_index);
    const std::vector<std::string> full = FullIndex(g, kept, inner_index);
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> values,
                          p_.Print(reduce.values, IndexOf(full), {}));
    PHAL_RETURN_IF_ERROR(Combine(reduce, acc, values, acc));
    p_.Close();
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> stored,
                          p_.Print(reduce.epilogue, IndexOf(kept), acc));
    for (uint32_t i = 0; i < reduce.output_count; ++i) {
      p_.Line(Store(reduce.outputs[i], "gid", stored[i]));
    }
    return OkStatus();
  }

  Status EmitKind(const phal_kir_reduce_t& reduce) {
    const uint32_t n = reduce.accumulator_count;
    const ReduceGeometry g = GeometryOf(reduce);
    std::vector<std::string> types;
    for (uint32_t j = 0; j < n; ++j) {
      types.push_back(d_.ComputeType(ResultType(reduce.init, j)));
    }
    if (g.inner <= kSequentialReduction || g.outputs >= kSequentialOutputs) {
      return SequentialReduce(reduce, g, types);
    }
    uint64_t group = 1;
    while (group * 2 <=
           std::min<uint64_t>(
               {kReduceGroup, p_.features().max_work_group_size,
                static_cast<uint64_t>(std::max<int64_t>(1, g.inner))})) {
      group *= 2;
    }
    out_.launch.dimensions = 1;
    out_.launch.global_size[0] = static_cast<uint64_t>(g.outputs) * group;
    out_.launch.local_size[0] = group;

    std::vector<std::string> shared(n), acc(n);
    for (uint32_t j = 0; j < n; ++j) {
      shared[j] = "shared" + std::to_string(j);
      acc[j] = "acc" + std::to_string(j);
      p_.Local(types[j], shared[j], group);
    }
    p_.Local(pred_, "valid", group);
    Index("group", d_.GroupId(0));
    Index("lid", d_.LocalId(0));
    std::vector<std::string> kept;
    Decompose("group", g.kept_dims, &kept);
    // Accumulators start as the init values so that they are defined even
    // in work-items that reduce nothing (valid stays 0 there).
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> init,
                          p_.Print(reduce.init, nullptr, {}));
    for (uint32_t j = 0; j < n; ++j) {
      p_.Line(d_.Declare(types[j], acc[j], init[j], false));
    }
    p_.Line(d_.Declare(pred_, "have", Pred("0"), false));
    p_.Open("for (" + long_ + " q = lid; q < " + L(g.inner) +
            "; q += " + L(static_cast<int64_t>(group)) + ")");
    std::vector<std::string> inner_index;
    Decompose("q", g.reduced_dims, &inner_index);
    const std::vector<std::string> full = FullIndex(g, kept, inner_index);
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> values,
                          p_.Print(reduce.values, IndexOf(full), {}));
    p_.Open("if (have != 0)");
    PHAL_RETURN_IF_ERROR(Combine(reduce, acc, values, acc));
    p_.Close("} else {");
    p_.Line("  have = " + Pred("1") + ";");
    for (uint32_t j = 0; j < n; ++j) {
      p_.Line("  " + acc[j] + " = " + values[j] + ";");
    }
    p_.Line("}");
    p_.Close();
    if (UseSubgroups(types)) {
      // Each subgroup first combines its invocations' values by shuffles
      // (lane i takes lane i + d for d = size/2, ..., 1, where such a lane
      // runs); its lane 0 leaves the result in the slot of the subgroup.
      Index("lane", d_.SubgroupLane());
      Index("live", d_.SubgroupLive());
      p_.Open("for (" + long_ + " d = " + d_.SubgroupSize() +
              " / 2; d > 0; d >>= 1)");
      std::vector<std::string> other(n);
      for (uint32_t j = 0; j < n; ++j) {
        other[j] = p_.Fresh("other");
        p_.Line(
            d_.Declare(types[j], other[j], d_.ShuffleDown(acc[j], "d"), true));
      }
      const std::string u32 = d_.ComputeType(PHAL_ELEMENT_TYPE_U32);
      p_.Line(d_.Declare(u32, "other_have",
                         d_.ShuffleDown(d_.Cast(u32, "have"), "d"), true));
      p_.Open("if (lane + d < live && other_have != 0)");
      p_.Open("if (have != 0)");
      PHAL_RETURN_IF_ERROR(Combine(reduce, acc, other, acc));
      p_.Close("} else {");
      for (uint32_t j = 0; j < n; ++j) {
        p_.Line("  " + acc[j] + " = " + other[j] + ";");
      }
      p_.Line("  have = " + Pred("1") + ";");
      p_.Line("}");
      p_.Close();
      p_.Close();
      p_.Line(d_.Subscript("valid", "lid") + " = " + Pred("0") + ";");
      p_.Line(d_.Barrier());
      p_.Open("if (lane == 0)");
      for (uint32_t j = 0; j < n; ++j) {
        p_.Line(d_.Subscript(shared[j], d_.SubgroupIndex()) + " = " + acc[j] +
                ";");
      }
      p_.Line(d_.Subscript("valid", d_.SubgroupIndex()) + " = have;");
      p_.Close();
    } else {
      for (uint32_t j = 0; j < n; ++j) {
        p_.Line(d_.Subscript(shared[j], "lid") + " = " + acc[j] + ";");
      }
      p_.Line(d_.Subscript("valid", "lid") + " = have;");
    }
    p_.Line(d_.Barrier());
    p_.Open("for (" + long_ + " s = " + L(static_cast<int64_t>(group / 2)) +
            "; s > 0; s >>= 1)");
    p_.Open("if (lid < s && " + d_.Subscript("valid", "lid + s") + " != 0)");
    p_.Open("if (" + d_.Subscript("valid", "lid") + " != 0)");
    std::vector<std::string> left, right;
    for (uint32_t j = 0; j < n; ++j) {
      left.push_back(d_.Subscript(shared[j], "lid"));
      right.push_back(d_.Subscript(shared[j], "lid + s"));
    }
    // The reducer reads both sides before any is written.
    std::vector<std::string> copies_left, copies_right;
    for (uint32_t j = 0; j < n; ++j) {
      copies_left.push_back(p_.Fresh("left"));
      copies_right.push_back(p_.Fresh("right"));
      p_.Line(d_.Declare(types[j], copies_left[j], left[j], true));
      p_.Line(d_.Declare(types[j], copies_right[j], right[j], true));
    }
    PHAL_RETURN_IF_ERROR(Combine(reduce, copies_left, copies_right, left));
    p_.Close("} else {");
    for (uint32_t j = 0; j < n; ++j) {
      p_.Line("  " + left[j] + " = " + right[j] + ";");
    }
    p_.Line("  " + d_.Subscript("valid", "lid") + " = " + Pred("1") + ";");
    p_.Line("}");
    p_.Close();
    p_.Line(d_.Barrier());
    p_.Close();
    p_.Open("if (lid == 0)");
    std::vector<std::string> result(n);
    for (uint32_t j = 0; j < n; ++j) {
      result[j] = p_.Fresh("result");
      p_.Line(d_.Declare(types[j], result[j], init[j], false));
    }
    p_.Open("if (" + d_.Subscript("valid", "0") + " != 0)");
    std::vector<std::string> combined;
    for (uint32_t j = 0; j < n; ++j) {
      combined.push_back(d_.Subscript(shared[j], "0"));
    }
    PHAL_RETURN_IF_ERROR(Combine(reduce, result, combined, result));
    p_.Close();
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> stored,
                          p_.Print(reduce.epilogue, IndexOf(kept), result));
    for (uint32_t i = 0; i < reduce.output_count; ++i) {
      p_.Line(Store(reduce.outputs[i], "group", stored[i]));
    }
    p_.Close();
    return OkStatus();
  }

  // Whether a work-group reduction combines within subgroups first: the
  // device shuffles, and every accumulator is a type shuffles move.
  bool UseSubgroups(const std::vector<std::string>& types) const {
    if (p_.features().subgroup_size < 2) return false;
    for (const std::string& type : types) {
      bool movable = false;
      for (phal_element_type_t t :
           {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_S32,
            PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_C64,
            PHAL_ELEMENT_TYPE_C128}) {
        movable |= type == d_.ComputeType(t);
      }
      if (!movable) return false;
    }
    return true;
  }

  // Stores `sum` through the one-result epilogue (or as it is, without one)
  // at `linear` of buffer `output`.
  Status Epilogue(const phal_kir_body_t& epilogue, uint32_t output,
                  const std::vector<std::string>& index, const std::string& sum,
                  const std::string& linear) {
    if (epilogue.result_count == 0) {
      p_.Line(Store(output, linear, sum));
      return OkStatus();
    }
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> results,
                          p_.Print(epilogue, IndexOf(index), {sum}));
    p_.Line(Store(output, linear, results[0]));
    return OkStatus();
  }

  Status EmitKind(const phal_kir_dot_t& dot) {
    const phal_element_type_t acc_type = dot.accumulation_type;
    uint64_t tile = kDotTile;
    while (tile > 1 && tile * tile > p_.features().max_work_group_size) {
      tile /= 2;
    }
    const std::string t = d_.ComputeType(acc_type);
    out_.launch.dimensions = 3;
    out_.launch.global_size[0] = RoundUp(static_cast<uint64_t>(dot.n), tile);
    out_.launch.global_size[1] = RoundUp(static_cast<uint64_t>(dot.m), tile);
    out_.launch.global_size[2] = static_cast<uint64_t>(dot.batch);
    out_.launch.local_size[0] = tile;
    out_.launch.local_size[1] = tile;
    out_.launch.local_size[2] = 1;
    const std::string pitch = L(static_cast<int64_t>(tile + 1));
    const std::string tl = L(static_cast<int64_t>(tile));
    p_.Local(t, "tile_a", tile * (tile + 1));
    p_.Local(t, "tile_b", tile * (tile + 1));
    Index("col", d_.GlobalId(0));
    Index("row", d_.GlobalId(1));
    Index("batch", d_.GlobalId(2));
    Index("lx", d_.LocalId(0));
    Index("ly", d_.LocalId(1));
    p_.Line(d_.Declare(t, "sum", p_.Zero(acc_type), false));
    p_.Open("for (" + long_ + " k0 = 0; k0 < " + L(dot.k) + "; k0 += " + tl +
            ")");
    const std::string a_index = "batch * " + L(dot.lhs_strides[0]) +
                                " + row * " + L(dot.lhs_strides[1]) +
                                " + (k0 + lx) * " + L(dot.lhs_strides[2]);
    const std::string b_index = "batch * " + L(dot.rhs_strides[0]) +
                                " + (k0 + ly) * " + L(dot.rhs_strides[1]) +
                                " + col * " + L(dot.rhs_strides[2]);
    PHAL_ASSIGN_OR_RETURN(std::string a,
                          p_.Convert(Buffer(dot.lhs).element_type, acc_type,
                                     Load(dot.lhs, a_index)));
    PHAL_ASSIGN_OR_RETURN(std::string b,
                          p_.Convert(Buffer(dot.rhs).element_type, acc_type,
                                     Load(dot.rhs, b_index)));
    p_.Line(d_.Subscript("tile_a", "ly * " + pitch + " + lx") + " = row < " +
            L(dot.m) + " && k0 + lx < " + L(dot.k) + " ? " + a + " : " +
            p_.Zero(acc_type) + ";");
    p_.Line(d_.Subscript("tile_b", "ly * " + pitch + " + lx") + " = col < " +
            L(dot.n) + " && k0 + ly < " + L(dot.k) + " ? " + b + " : " +
            p_.Zero(acc_type) + ";");
    p_.Line(d_.Barrier());
    p_.Open("for (" + long_ + " kk = 0; kk < " + tl + "; ++kk)");
    PHAL_ASSIGN_OR_RETURN(
        std::string madd,
        p_.MultiplyAdd(acc_type, "sum",
                       d_.Subscript("tile_a", "ly * " + pitch + " + kk"),
                       d_.Subscript("tile_b", "kk * " + pitch + " + lx")));
    p_.Line("sum = " + madd + ";");
    p_.Close();
    p_.Line(d_.Barrier());
    p_.Close();
    p_.Line("if (row >= " + L(dot.m) + " || col >= " + L(dot.n) + ") return;");
    return Epilogue(
        dot.epilogue, dot.output, {"batch", "row", "col"}, "sum",
        "(batch * " + L(dot.m) + " + row) * " + L(dot.n) + " + col");
  }

  Status EmitKind(const phal_kir_conv_t& conv) {
    const phal_kir_buffer_t& input = Buffer(conv.input);
    const phal_kir_buffer_t& weights = Buffer(conv.kernel);
    const phal_kir_buffer_t& output = Buffer(conv.output);
    const uint32_t rank = conv.spatial_count + 2;
    const phal_element_type_t type = conv.accumulation_type;
    const std::vector<int64_t> dims(output.dims, output.dims + output.rank);
    const int64_t total = Product(output.dims, output.rank);
    Launch1D(static_cast<uint64_t>(total), kLoopGroup);
    Index("gid", d_.GlobalId(0));
    p_.Line("if (gid >= " + L(total) + ") return;");
    std::vector<std::string> out;
    Decompose("gid", dims, &out);
    const int64_t kernel_features =
        weights.dims[conv.kernel_input_feature_dimension];
    const int64_t output_features =
        weights.dims[conv.kernel_output_feature_dimension];
    const int64_t output_batch = output.dims[conv.output_batch_dimension];
    const std::string& feature = out[conv.output_feature_dimension];
    const std::string& batch = out[conv.output_batch_dimension];
    Index("feature_group",
          feature + " / " + L(output_features / conv.feature_group_count));
    Index("batch_group",
          feature + " / " + L(output_features / conv.batch_group_count));
    Index("input_batch", "batch_group * " + L(output_batch) + " + " + batch);
    const std::string t = d_.ComputeType(type);
    p_.Line(d_.Declare(t, "sum", p_.Zero(type), false));
    p_.Open("for (" + long_ + " f = 0; f < " + L(kernel_features) + "; ++f)");
    std::vector<std::string> input_index(rank), kernel_index(rank);
    input_index[conv.input_batch_dimension] = "input_batch";
    input_index[conv.input_feature_dimension] =
        "feature_group * " + L(kernel_features) + " + f";
    kernel_index[conv.kernel_input_feature_dimension] = "f";
    kernel_index[conv.kernel_output_feature_dimension] = feature;
    std::vector<std::string> valid;
    for (uint32_t s = 0; s < conv.spatial_count; ++s) {
      const int64_t window = weights.dims[conv.kernel_spatial_dimensions[s]];
      const std::string k = "w" + std::to_string(s);
      p_.Open("for (" + long_ + " " + k + " = 0; " + k + " < " + L(window) +
              "; ++" + k + ")");
      kernel_index[conv.kernel_spatial_dimensions[s]] =
          conv.window_reversal != nullptr && conv.window_reversal[s] != 0
              ? L(window - 1) + " - " + k
              : k;
      const std::string position = "position" + std::to_string(s);
      Index(position, out[conv.output_spatial_dimensions[s]] + " * " +
                          L(conv.window_strides[s]) + " + " + k + " * " +
                          L(conv.rhs_dilation[s]) + " - " +
                          L(conv.padding[2 * s]));
      const std::string element = "element" + std::to_string(s);
      Index(element, position + " / " + L(conv.lhs_dilation[s]));
      valid.push_back(position + " >= 0");
      valid.push_back(position + " % " + L(conv.lhs_dilation[s]) + " == 0");
      valid.push_back(element + " < " +
                      L(input.dims[conv.input_spatial_dimensions[s]]));
      input_index[conv.input_spatial_dimensions[s]] = element;
    }
    p_.Open("if (" + All(valid) + ")");
    PHAL_ASSIGN_OR_RETURN(
        std::string x,
        p_.Convert(input.element_type, type,
                   Load(conv.input, p_.LinearIndex(conv.input, input_index))));
    PHAL_ASSIGN_OR_RETURN(
        std::string w,
        p_.Convert(
            weights.element_type, type,
            Load(conv.kernel, p_.LinearIndex(conv.kernel, kernel_index))));
    p_.Line(d_.Declare(t, "x", x, true));
    p_.Line(d_.Declare(t, "w", w, true));
    PHAL_ASSIGN_OR_RETURN(std::string madd,
                          p_.MultiplyAdd(type, "sum", "x", "w"));
    p_.Line("sum = " + madd + ";");
    p_.Close();
    for (uint32_t s = 0; s < conv.spatial_count; ++s) p_.Close();
    p_.Close();
    return Epilogue(conv.epilogue, conv.output, out, "sum", "gid");
  }

  // The s64 expression of an integer element of buffer `b` at `linear`.
  std::string IndexValue(uint32_t b, const std::string& linear) const {
    return d_.Cast(long_, Load(b, linear));
  }

  Status EmitKind(const phal_kir_gather_t& gather) {
    const phal_kir_buffer_t& operand = Buffer(gather.operand);
    const phal_kir_buffer_t& indices = Buffer(gather.start_indices);
    const phal_kir_buffer_t& output = Buffer(gather.output);
    const std::vector<int64_t> dims(output.dims, output.dims + output.rank);
    const int64_t total = Product(output.dims, output.rank);
    Launch1D(static_cast<uint64_t>(total), kLoopGroup);
    Index("gid", d_.GlobalId(0));
    p_.Line("if (gid >= " + L(total) + ") return;");
    std::vector<std::string> out;
    Decompose("gid", dims, &out);
    std::vector<std::string> batch;
    for (uint32_t d = 0; d < output.rank; ++d) {
      if (!Contains(gather.offset_dims, gather.offset_dims_count, d)) {
        batch.push_back(out[d]);
      }
    }
    std::vector<std::string> result(operand.rank, "0");
    for (uint32_t k = 0; k < gather.start_index_map_count; ++k) {
      std::vector<std::string> position;
      size_t next = 0;
      for (uint32_t d = 0; d < indices.rank; ++d) {
        position.push_back(static_cast<int64_t>(d) == gather.index_vector_dim
                               ? L(k)
                               : batch[next++]);
      }
      const auto d = static_cast<size_t>(gather.start_index_map[k]);
      const std::string start = p_.Fresh("start");
      Index(start,
            "clamp(" +
                IndexValue(gather.start_indices,
                           p_.LinearIndex(gather.start_indices, position)) +
                ", 0l, " + L(operand.dims[d] - gather.slice_sizes[d]) + ")");
      result[d] = start;
    }
    for (uint32_t i = 0; i < gather.operand_batching_dims_count; ++i) {
      const int64_t indices_dim = gather.start_indices_batching_dims[i];
      const auto component = static_cast<size_t>(
          indices_dim < gather.index_vector_dim ? indices_dim
                                                : indices_dim - 1);
      const auto d = static_cast<size_t>(gather.operand_batching_dims[i]);
      result[d] = "(" + result[d] + " + " + batch[component] + ")";
    }
    uint32_t offset = 0;
    for (uint32_t d = 0; d < operand.rank; ++d) {
      if (Contains(gather.collapsed_slice_dims,
                   gather.collapsed_slice_dims_count, d) ||
          Contains(gather.operand_batching_dims,
                   gather.operand_batching_dims_count, d)) {
        continue;
      }
      const auto output_dim = static_cast<size_t>(gather.offset_dims[offset++]);
      result[d] = "(" + result[d] + " + " + out[output_dim] + ")";
    }
    p_.Line(
        Store(gather.output, "gid",
              Load(gather.operand, p_.LinearIndex(gather.operand, result))));
    return OkStatus();
  }

  Status EmitKind(const phal_kir_scatter_t& scatter) {
    const phal_kir_buffer_t& operand = Buffer(scatter.operand);
    const phal_kir_buffer_t& indices = Buffer(scatter.scatter_indices);
    const phal_kir_buffer_t& updates = Buffer(scatter.updates);
    out_.launch.dimensions = 1;
    out_.launch.global_size[0] = 1;
    out_.launch.local_size[0] = 1;
    const int64_t elements = Product(operand.dims, operand.rank);
    if (scatter.output != scatter.operand) {
      p_.Open("for (" + long_ + " e = 0; e < " + L(elements) + "; ++e)");
      p_.Line(Store(scatter.output, "e", Load(scatter.operand, "e")));
      p_.Close();
    }
    const std::vector<int64_t> update_dims(updates.dims,
                                           updates.dims + updates.rank);
    p_.Open("for (" + long_ + " u = 0; u < " +
            L(Product(updates.dims, updates.rank)) + "; ++u)");
    std::vector<std::string> update;
    Decompose("u", update_dims, &update);
    std::vector<std::string> batch;
    for (uint32_t d = 0; d < updates.rank; ++d) {
      if (!Contains(scatter.update_window_dims,
                    scatter.update_window_dims_count, d)) {
        batch.push_back(update[d]);
      }
    }
    std::vector<std::string> target(operand.rank, "0");
    for (uint32_t k = 0; k < scatter.scatter_dims_to_operand_dims_count; ++k) {
      std::vector<std::string> position;
      size_t next = 0;
      for (uint32_t d = 0; d < indices.rank; ++d) {
        position.push_back(static_cast<int64_t>(d) == scatter.index_vector_dim
                               ? L(k)
                               : batch[next++]);
      }
      const auto d =
          static_cast<size_t>(scatter.scatter_dims_to_operand_dims[k]);
      target[d] = IndexValue(scatter.scatter_indices,
                             p_.LinearIndex(scatter.scatter_indices, position));
    }
    for (uint32_t i = 0; i < scatter.input_batching_dims_count; ++i) {
      const int64_t indices_dim = scatter.scatter_indices_batching_dims[i];
      const auto component = static_cast<size_t>(
          indices_dim < scatter.index_vector_dim ? indices_dim
                                                 : indices_dim - 1);
      const auto d = static_cast<size_t>(scatter.input_batching_dims[i]);
      target[d] = "(" + target[d] + " + " + batch[component] + ")";
    }
    uint32_t window = 0;
    for (uint32_t d = 0; d < operand.rank; ++d) {
      if (Contains(scatter.inserted_window_dims,
                   scatter.inserted_window_dims_count, d) ||
          Contains(scatter.input_batching_dims,
                   scatter.input_batching_dims_count, d)) {
        continue;
      }
      const auto update_dim =
          static_cast<size_t>(scatter.update_window_dims[window++]);
      target[d] = "(" + target[d] + " + " + update[update_dim] + ")";
    }
    std::vector<std::string> in_bounds;
    std::vector<std::string> names;
    for (uint32_t d = 0; d < operand.rank; ++d) {
      names.push_back(p_.Fresh("t"));
      Index(names[d], target[d]);
      in_bounds.push_back(names[d] + " >= 0");
      in_bounds.push_back(names[d] + " < " + L(operand.dims[d]));
    }
    p_.Open("if (" + All(in_bounds) + ")");
    const std::string at = p_.LinearIndex(scatter.output, names);
    PHAL_ASSIGN_OR_RETURN(
        std::vector<std::string> combined,
        p_.Print(
            scatter.combiner, nullptr,
            {Load(scatter.output, at),
             Load(scatter.updates, p_.LinearIndex(scatter.updates, update))}));
    p_.Line(Store(scatter.output, at, combined[0]));
    p_.Close();
    p_.Close();
    return OkStatus();
  }

  Status EmitKind(const phal_kir_sort_t& sort) {
    const phal_kir_buffer_t& first = Buffer(sort.operands[0]);
    const int64_t length = first.dims[sort.dimension];
    const int64_t stride =
        Product(first.dims + sort.dimension + 1,
                first.rank - static_cast<uint32_t>(sort.dimension) - 1);
    const int64_t slices =
        length == 0 ? 0 : Product(first.dims, first.rank) / length;
    // Per slice: the permutation and its merge buffer (int each), then a
    // copy of every operand's slice, each at a 16-byte boundary.
    std::vector<int64_t> offsets;
    int64_t bytes = static_cast<int64_t>(
        RoundUp(static_cast<uint64_t>(2 * length * 4), 16));
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      offsets.push_back(bytes);
      bytes += static_cast<int64_t>(RoundUp(
          static_cast<uint64_t>(
              length * StorageBytes(Buffer(sort.operands[k]).element_type)),
          16));
    }
    Launch1D(static_cast<uint64_t>(slices), 1);
    out_.launch.scratch_bytes =
        static_cast<uint64_t>(std::max<int64_t>(1, slices * bytes));

    // Scratch views: the permutations as s32, each operand's copies as
    // its own type; positions in elements from the scratch's first byte.
    const std::string perm_view = d_.ScratchView(PHAL_ELEMENT_TYPE_S32);
    const auto copy_at = [&](uint32_t k, const std::string& i) {
      const int64_t size = StorageBytes(Buffer(sort.operands[k]).element_type);
      return "(s * " + L(bytes / size) + " + " + L(offsets[k] / size) + " + " +
             i + ")";
    };
    const auto copy_load = [&](uint32_t k, const std::string& i) {
      const phal_element_type_t type = Buffer(sort.operands[k]).element_type;
      return d_.Load(type, d_.ScratchView(type), copy_at(k, i));
    };
    const auto perm = [&](const std::string& i) {
      return d_.Subscript(perm_view, "perm + " + i);
    };
    const auto merged = [&](const std::string& i) {
      return d_.Subscript(perm_view, "merged + " + i);
    };

    Index("s", d_.GlobalId(0));
    p_.Line("if (s >= " + L(slices) + ") return;");
    Index("base", "s / " + L(stride) + " * " + L(length * stride) + " + s % " +
                      L(stride));
    Index("perm", "s * " + L(bytes / 4), false);
    Index("merged", "perm + " + L(length), false);
    p_.Open("for (" + long_ + " i = 0; i < " + L(length) + "; ++i)");
    p_.Line(perm("i") + " = " +
            d_.Cast(d_.ComputeType(PHAL_ELEMENT_TYPE_S32), "i") + ";");
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      const uint32_t b = sort.operands[k];
      const phal_element_type_t type = Buffer(b).element_type;
      p_.Line(d_.Store(type, d_.ScratchView(type), copy_at(k, "i"),
                       Load(b, "base + i * " + L(stride))));
    }
    p_.Close();
    p_.Open("for (" + long_ + " width = 1; width < " + L(length) +
            "; width *= 2)");
    p_.Open("for (" + long_ + " lo = 0; lo < " + L(length) +
            "; lo += 2 * width)");
    Index("mid", "min(lo + width, " + L(length) + ")");
    Index("hi", "min(lo + 2 * width, " + L(length) + ")");
    Index("i", "lo", false);
    Index("j", "mid", false);
    Index("k", "lo", false);
    p_.Open("while (i < mid && j < hi)");
    // The comparator on element a = perm[j] against b = perm[i]: true when
    // a sorts before b, and then a comes first (the merge is stable).
    Index("a", d_.Cast(long_, perm("j")));
    Index("b", d_.Cast(long_, perm("i")));
    std::vector<std::string> parameters;
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      parameters.push_back(copy_load(k, "a"));
      parameters.push_back(copy_load(k, "b"));
    }
    PHAL_ASSIGN_OR_RETURN(std::vector<std::string> less,
                          p_.Print(sort.comparator, nullptr, parameters));
    p_.Open("if (" + less[0] + " != 0)");
    p_.Line(merged("k") + " = " + perm("j") + ";");
    p_.Line("++j;");
    p_.Close("} else {");
    p_.Line("  " + merged("k") + " = " + perm("i") + ";");
    p_.Line("  ++i;");
    p_.Line("}");
    p_.Line("++k;");
    p_.Close();
    p_.Open("while (i < mid)");
    p_.Line(merged("k") + " = " + perm("i") + ";");
    p_.Line("++k;");
    p_.Line("++i;");
    p_.Close();
    p_.Open("while (j < hi)");
    p_.Line(merged("k") + " = " + perm("j") + ";");
    p_.Line("++k;");
    p_.Line("++j;");
    p_.Close();
    p_.Close();
    Index("swap", "perm");
    p_.Line("perm = merged;");
    p_.Line("merged = swap;");
    p_.Close();
    p_.Open("for (" + long_ + " i = 0; i < " + L(length) + "; ++i)");
    for (uint32_t k = 0; k < sort.operand_count; ++k) {
      p_.Line(Store(sort.outputs[k], "base + i * " + L(stride),
                    copy_load(k, d_.Cast(long_, perm("i")))));
    }
    p_.Close();
    return OkStatus();
  }

  Status EmitKind(const phal_kir_copy_t& copy) {
    const phal_kir_buffer_t& source = Buffer(copy.source);
    const int64_t bytes =
        Product(source.dims, source.rank) * StorageBytes(source.element_type);
    byte_buffers_ = true;
    Launch1D(static_cast<uint64_t>(bytes), kLoopGroup);
    Index("gid", d_.GlobalId(0));
    p_.Line("if (gid >= " + L(bytes) + ") return;");
    p_.Line(d_.Subscript(BodyPrinter::BufferName(copy.destination), "gid") +
            " = " + d_.Subscript(BodyPrinter::BufferName(copy.source), "gid") +
            ";");
    return OkStatus();
  }

  const phal_kernel_desc_t& kernel_;
  BodyPrinter p_;
  const Dialect& d_;
  const std::string long_;  // the s64 type: indices and positions
  const std::string pred_;
  SourceKernel out_;
  bool byte_buffers_ = false;
};

}  // namespace

uint64_t SupportedKernelKinds() {
  uint64_t kinds = 0;
  for (uint32_t kind = PHAL_KERNEL_KIND_LOOP; kind <= PHAL_KERNEL_KIND_COPY;
       ++kind) {
    kinds |= uint64_t{1} << kind;
  }
  return kinds;
}

StatusOr<SourceKernel> EmitSource(const phal_kernel_desc_t& kernel,
                                  const Dialect& dialect,
                                  const DeviceFeatures& features) {
  PHAL_RETURN_IF_ERROR(
      CheckKernelKind(kernel, SupportedKernelKinds(), "the source emitter"));
  PHAL_RETURN_IF_ERROR(CheckKernelStructure(kernel));
  KernelPrinter printer(kernel, dialect, features);
  return printer.Emit();
}

}  // namespace phal::source_emitter
