// Data movement is exact: every op over every element type at one shape,
// and f32 over further shapes (ranks, empty dimensions, large arrays).
#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/hlo_text.h"

namespace phal::conformance {
namespace {

struct Movement {
  const char* op;
  const char* variant;
  int tier;
  // Entry lines after the parameters, given the element type; the
  // parameters are p0 of `operand` dims and, when `second` is not empty,
  // p1 of `second` dims (index parameters are s32 scalars after those).
  std::vector<int64_t> operand;
  std::vector<int64_t> second;
  int index_parameters;
  int64_t index_low, index_high;
  std::string (*body)(ElementType type);
};

std::string T(ElementType type, const std::vector<int64_t>& dims) {
  return ShapeText(type, dims);
}

std::vector<Movement> Movements() {
  return {
      {"broadcast",
       "row",
       1,
       {7},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {5, 7, 3}) +
                " broadcast(p0), dimensions={1}";
       }},
      {"broadcast",
       "scalar",
       1,
       {},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {4, 6}) + " broadcast(p0), dimensions={}";
       }},
      {"reshape",
       "",
       1,
       {6, 10},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {4, 15}) + " reshape(p0)";
       }},
      {"transpose",
       "2d",
       1,
       {7, 13},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {13, 7}) +
                " transpose(p0), dimensions={1,0}";
       }},
      {"transpose",
       "3d",
       1,
       {3, 5, 12},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {12, 3, 5}) +
                " transpose(p0), dimensions={2,0,1}";
       }},
      {"slice",
       "",
       1,
       {17, 13},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {5, 11}) +
                " slice(p0), slice={[2:15:3], [1:12]}";
       }},
      {"concatenate",
       "",
       1,
       {3, 5},
       {4, 5},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {7, 5}) +
                " concatenate(p0, p1), dimensions={0}";
       }},
      {"copy",
       "",
       1,
       {7, 13},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {7, 13}) + " copy(p0)";
       }},
      {"reverse",
       "",
       2,
       {7, 13},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "ROOT r = " + T(t, {7, 13}) + " reverse(p0), dimensions={0,1}";
       }},
      {"pad",
       "",
       2,
       {5, 7},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "z = " + T(t, {}) + " constant(" + ConstantText(t, "one") +
                ")\n  ROOT r = " + T(t, {12, 9}) +
                " pad(p0, z), padding=1_2_1x-1_3_0";
       }},
      {"dynamic-slice",
       "",
       3,
       {9, 11},
       {},
       2,
       -3,
       12,
       [](ElementType t) {
         return "ROOT r = " + T(t, {4, 5}) +
                " dynamic-slice(p0, p1, p2), dynamic_slice_sizes={4,5}";
       }},
      {"dynamic-update-slice",
       "",
       3,
       {9, 11},
       {4, 5},
       2,
       -3,
       12,
       [](ElementType t) {
         return "ROOT r = " + T(t, {9, 11}) +
                " dynamic-update-slice(p0, p1, p2, p3)";
       }},
      {"gather",
       "rows",
       3,
       {10, 7},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "i = s32[6,1] constant({{3},{0},{9},{3},{12},{-2}})\n"
                "  ROOT r = " +
                T(t, {6, 7}) +
                " gather(p0, i), offset_dims={1}, collapsed_slice_dims={0}, "
                "start_index_map={0}, index_vector_dim=1, slice_sizes={1,7}";
       }},
      {"gather",
       "windows",
       3,
       {10, 7},
       {},
       0,
       0,
       0,
       [](ElementType t) {
         return "i = s32[4,2] constant({{0,0},{8,5},{3,-1},{9,9}})\n"
                "  ROOT r = " +
                T(t, {4, 3, 2}) +
                " gather(p0, i), offset_dims={1,2}, collapsed_slice_dims={}, "
                "start_index_map={0,1}, index_vector_dim=1, slice_sizes={3,2}";
       }},
      {"scatter",
       "overwrite",
       3,
       {10, 7},
       {4, 7},
       0,
       0,
       0,
       [](ElementType t) {
         return "i = s32[4,1] constant({{3},{0},{9},{12}})\n  ROOT r = " +
                T(t, {10, 7}) +
                " scatter(p0, i, p1), update_window_dims={1}, "
                "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
                "index_vector_dim=1, to_apply=assign";
       }},
  };
}

std::string AssignComputation(ElementType type) {
  const std::string scalar = ShapeText(type, {});
  return "assign {\n  a = " + scalar + " parameter(0)\n  b = " + scalar +
         " parameter(1)\n  ROOT r = " + scalar + " copy(b)\n}\n";
}

Case MovementCase(const Movement& m, ElementType type) {
  std::vector<std::string> lines = {ParameterLine(0, type, m.operand)};
  std::vector<InputSpec> inputs = {RandomValues()};
  int next = 1;
  if (!m.second.empty()) {
    lines.push_back(ParameterLine(next++, type, m.second));
    inputs.push_back(RandomValues());
  }
  for (int i = 0; i < m.index_parameters; ++i) {
    lines.push_back(ParameterLine(next++, PHAL_ELEMENT_TYPE_S32, {}));
    inputs.push_back(IndexValues(m.index_low, m.index_high));
  }
  lines.push_back(m.body(type));
  Case c = NumericCase(m.op, m.variant, type, IsComplex(type) ? 3 : m.tier,
                       "odd", "random", "", inputs, Exact());
  std::vector<std::string> computations;
  if (std::string(m.op) == "scatter") {
    computations.push_back(AssignComputation(type));
  }
  c.module_text = ModuleText(c.id, computations, lines);
  return c;
}

void AddIotaCases(std::vector<Case>* cases) {
  for (ElementType type : AllTypes()) {
    if (type == PHAL_ELEMENT_TYPE_PRED) continue;
    Case c = NumericCase("iota", "", type, IsComplex(type) ? 3 : 1, "odd",
                         "none", "", {}, Exact());
    c.module_text = ModuleText(
        c.id, {},
        {"ROOT r = " + ShapeText(type, {7, 13}) + " iota(), iota_dimension=1"});
    cases->push_back(std::move(c));
  }
}

// f32 through the shape classes: large arrays cross tiles, empty ones have
// nothing to move.
void AddShapeCases(std::vector<Case>* cases) {
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  struct Shaped {
    const char* op;
    const char* shape_class;
    std::vector<int64_t> in;
    std::vector<int64_t> out;
    std::string attributes;
  };
  const std::vector<Shaped> shaped = {
      {"transpose", "large", {300, 384}, {384, 300}, ", dimensions={1,0}"},
      {"transpose",
       "npot",
       {3, 5, 12, 7},
       {7, 12, 3, 5},
       ", dimensions={3,2,0,1}"},
      {"transpose", "empty", {0, 5}, {5, 0}, ", dimensions={1,0}"},
      {"reverse", "large", {300, 384}, {300, 384}, ", dimensions={1}"},
      {"slice",
       "large",
       {300, 384},
       {100, 190},
       ", slice={[1:300:3], [3:383:2]}"},
      {"broadcast", "large", {384}, {300, 384}, ", dimensions={1}"},
      {"reshape", "empty", {0, 5}, {5, 0}, ""},
      {"copy", "large", {300, 384}, {300, 384}, ""},
  };
  for (const Shaped& s : shaped) {
    Case c = NumericCase(s.op, "", f32, 1, s.shape_class, "random", "",
                         {RandomValues()}, Exact());
    c.module_text = ModuleText(
        c.id, {},
        {ParameterLine(0, f32, s.in), "ROOT r = " + ShapeText(f32, s.out) +
                                          " " + s.op + "(p0)" + s.attributes});
    cases->push_back(std::move(c));
  }
  Case concat = NumericCase("concatenate", "three", f32, 1, "large", "random",
                            "", {}, Exact());
  concat.module_text = ModuleText(
      concat.id, {},
      {ParameterLine(0, f32, {300, 100}), ParameterLine(1, f32, {300, 1}),
       ParameterLine(2, f32, {300, 283}),
       "ROOT r = " + ShapeText(f32, {300, 384}) +
           " concatenate(p0, p1, p2), dimensions={1}"});
  cases->push_back(std::move(concat));
}

// Start indices of other integer types, and scatter-add with duplicate
// indices (accumulated in an unspecified order: float results get the
// accumulation bound).
void AddIndexingVariants(std::vector<Case>* cases) {
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  for (ElementType index :
       {PHAL_ELEMENT_TYPE_S64, PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_S8}) {
    const std::string variant = std::string("index_") + ElementTypeName(index);
    Case c = NumericCase(
        "dynamic-slice", variant, f32, 3, "odd", "random", "",
        {RandomValues(), IndexValues(0, 12), IndexValues(0, 12)}, Exact());
    c.module_text =
        ModuleText(c.id, {},
                   {ParameterLine(0, f32, {9, 11}), ParameterLine(1, index, {}),
                    ParameterLine(2, index, {}),
                    "ROOT r = f32[4,5] dynamic-slice(p0, p1, p2), "
                    "dynamic_slice_sizes={4,5}"});
    cases->push_back(std::move(c));
  }
  for (ElementType type :
       {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_F16}) {
    Case c =
        NumericCase("scatter", "add_duplicates", type, 3, "odd", "random", "",
                    {RandomValues(), IndexValues(-1, 10), RandomValues()},
                    IsFloat(type) ? Accumulation(24) : Exact());
    c.module_text = ModuleText(
        c.id, {BinaryComputation("combine", "add", type)},
        {ParameterLine(0, type, {10, 7}),
         ParameterLine(1, PHAL_ELEMENT_TYPE_S32, {24, 1}),
         ParameterLine(2, type, {24, 7}),
         "ROOT r = " + ShapeText(type, {10, 7}) +
             " scatter(p0, p1, p2), update_window_dims={1}, "
             "inserted_window_dims={0}, scatter_dims_to_operand_dims={0}, "
             "index_vector_dim=1, to_apply=combine"});
    cases->push_back(std::move(c));
  }
  Case gather =
      NumericCase("gather", "random_indices", f32, 3, "large", "random", "",
                  {RandomValues(), IndexValues(-5, 305)}, Exact());
  gather.module_text = ModuleText(
      gather.id, {},
      {ParameterLine(0, f32, {300, 384}),
       ParameterLine(1, PHAL_ELEMENT_TYPE_S32, {500, 1}),
       "ROOT r = f32[500,384] gather(p0, p1), offset_dims={1}, "
       "collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, "
       "slice_sizes={1,384}"});
  cases->push_back(std::move(gather));
}

}  // namespace

std::vector<Case> DataMovementCases() {
  std::vector<Case> cases;
  for (const Movement& m : Movements()) {
    for (ElementType type : AllTypes()) cases.push_back(MovementCase(m, type));
  }
  AddIotaCases(&cases);
  AddShapeCases(&cases);
  AddIndexingVariants(&cases);
  return cases;
}

}  // namespace phal::conformance
