// Reductions, dot and convolution: the bound scales with the number of
// terms accumulated per result element; max and min reductions are exact.
#include "conformance/cases/case_builder.h"
#include "conformance/cases/corpus.h"
#include "conformance/cases/hlo_text.h"

namespace phal::conformance {
namespace {

int64_t Product(const std::vector<int64_t>& dims) {
  int64_t product = 1;
  for (int64_t d : dims) product *= d;
  return product;
}

struct ReduceShape {
  const char* shape_class;
  std::vector<int64_t> in;
  std::vector<int64_t> dimensions;
  std::vector<int64_t> out;
};

std::vector<ReduceShape> ReduceShapes() {
  return {{"odd", {7, 13}, {1}, {7}},
          {"odd_outer", {7, 13}, {0}, {13}},
          {"npot_all", {3, 5, 12}, {0, 1, 2}, {}},
          {"npot_middle", {3, 5, 12}, {1}, {3, 12}},
          {"empty", {0, 5}, {0}, {5}},
          {"large", {300, 384}, {1}, {300}},
          {"large_all", {300, 384}, {0, 1}, {}}};
}

int64_t TermsPerElement(const ReduceShape& shape) {
  int64_t terms = 1;
  for (int64_t d : shape.dimensions) {
    terms *= shape.in[static_cast<std::size_t>(d)];
  }
  return terms;
}

void AddReduce(const std::string& combiner, const std::string& init,
               ElementType type, const ReduceShape& shape, int tier,
               const InputSpec& values, const std::string& value_class,
               std::vector<Case>* cases) {
  const bool exact = combiner != "add" && combiner != "multiply";
  Case c = NumericCase("reduce", combiner, type, IsComplex(type) ? 3 : tier,
                       shape.shape_class, value_class, "", {values},
                       exact || !(IsFloat(type) || IsComplex(type))
                           ? Exact()
                           : Accumulation(TermsPerElement(shape)));
  c.module_text = ModuleText(
      c.id, {BinaryComputation("combine", combiner, type)},
      {ParameterLine(0, type, shape.in),
       "init = " + ShapeText(type, {}) + " constant(" +
           ConstantText(type, init) + ")",
       "ROOT r = " + ShapeText(type, shape.out) +
           " reduce(p0, init), dimensions=" + DimsText(shape.dimensions) +
           ", to_apply=combine"});
  cases->push_back(std::move(c));
}

// Sums of negative zeros from +0: +0 (IEEE: -0 + +0 is +0). A kernel that
// drops an init it can see as zero (0 + x -> x) gives -0. The zeros are
// x * -0 of positive x, so no compiler folds them to a constant.
void AddNegativeZeroSumCases(std::vector<Case>* cases) {
  const ReduceShape odd = ReduceShapes()[0];
  for (ElementType type : FloatTypes()) {
    Case c =
        NumericCase("reduce", "add", type, 1, odd.shape_class, "negative_zeros",
                    "", {RandomValues(0.5, 1.5)}, Exact());
    c.module_text = ModuleText(
        c.id, {BinaryComputation("combine", "add", type)},
        {ParameterLine(0, type, odd.in),
         "m = " + ShapeText(type, {}) + " constant(-0)",
         "mb = " + ShapeText(type, odd.in) + " broadcast(m), dimensions={}",
         "z = " + ShapeText(type, odd.in) + " multiply(p0, mb)",
         "init = " + ShapeText(type, {}) + " constant(0)",
         "ROOT r = " + ShapeText(type, odd.out) +
             " reduce(z, init), dimensions=" + DimsText(odd.dimensions) +
             ", to_apply=combine"});
    cases->push_back(std::move(c));
  }
}

void AddReduceCases(std::vector<Case>* cases) {
  for (const ReduceShape& shape : ReduceShapes()) {
    AddReduce("add", "zero", PHAL_ELEMENT_TYPE_F32, shape, 1, RandomValues(),
              "random", cases);
    AddReduce("maximum", "lowest", PHAL_ELEMENT_TYPE_F32, shape, 1,
              RandomValues(), "random", cases);
  }
  const ReduceShape odd = ReduceShapes()[0];
  const ReduceShape large = ReduceShapes()[5];
  for (ElementType type :
       Join({FloatTypes(), IntegerTypes(), ComplexTypes()})) {
    if (type == PHAL_ELEMENT_TYPE_F32) continue;
    AddReduce("add", "zero", type, odd, 1, RandomValues(), "random", cases);
    if (IsFloat(type)) {
      AddReduce("add", "zero", type, large, 1, RandomValues(), "random", cases);
    }
  }
  for (ElementType type : Join({FloatTypes(), IntegerTypes()})) {
    AddReduce("maximum", "lowest", type, odd, 1, EdgeValues(), "edge", cases);
    AddReduce("minimum", "highest", type, odd, 1, EdgeValues(), "edge", cases);
  }
  for (ElementType type :
       {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_F64}) {
    AddReduce("multiply", "one", type, odd, 3, RandomValues(0.5, 1.5), "random",
              cases);
  }
  AddReduce("add", "zero", PHAL_ELEMENT_TYPE_F32, odd, 1, EdgeValues(), "edge",
            cases);
  AddNegativeZeroSumCases(cases);
  for (const char* combiner : {"and", "or"}) {
    AddReduce(combiner, std::string(combiner) == "and" ? "one" : "zero",
              PHAL_ELEMENT_TYPE_PRED, odd, 3, RandomValues(), "random", cases);
  }
  // argmax: a variadic reduce over (value, index) pairs.
  const ElementType f32 = PHAL_ELEMENT_TYPE_F32;
  Case argmax = NumericCase("reduce", "argmax", f32, 3, "odd", "random", "",
                            {RandomValues()}, Exact());
  argmax.module_text = ModuleText(
      argmax.id,
      {"argmax {\n  av = f32[] parameter(0)\n  ai = s32[] parameter(1)\n"
       "  bv = f32[] parameter(2)\n  bi = s32[] parameter(3)\n"
       "  gt = pred[] compare(av, bv), direction=GT\n"
       "  eq = pred[] compare(av, bv), direction=EQ\n"
       "  lt = pred[] compare(ai, bi), direction=LT\n"
       "  tie = pred[] and(eq, lt)\n  pick = pred[] or(gt, tie)\n"
       "  v = f32[] select(pick, av, bv)\n  i = s32[] select(pick, ai, bi)\n"
       "  ROOT r = (f32[], s32[]) tuple(v, i)\n}\n"},
      {ParameterLine(0, f32, {7, 13}),
       "iota = s32[7,13] iota(), iota_dimension=1",
       "vinit = f32[] constant(-inf)", "iinit = s32[] constant(0)",
       "ROOT r = (f32[7], s32[7]) reduce(p0, iota, vinit, iinit), "
       "dimensions={1}, to_apply=argmax"});
  cases->push_back(std::move(argmax));
}

void AddReduceWindowCases(std::vector<Case>* cases) {
  struct Window {
    const char* variant;
    std::vector<int64_t> in;
    std::vector<int64_t> out;
    std::string window;
    int64_t terms;
  };
  const std::vector<Window> windows = {
      {"maxpool", {2, 8, 8, 3}, {2, 4, 4, 3}, "size=1x2x2x1 stride=1x2x2x1", 4},
      {"sum_same",
       {2, 9, 9, 3},
       {2, 9, 9, 3},
       "size=1x3x3x1 pad=0_0x1_1x1_1x0_0",
       9},
      {"dilated",
       {2, 9, 9, 3},
       {2, 3, 6, 3},
       "size=1x3x2x1 stride=1x2x1x1 pad=0_0x1_0x0_0x0_0 rhs_dilate=1x2x3x1",
       6},
      {"base_dilated",
       {1, 5, 5, 2},
       {1, 8, 8, 2},
       "size=1x2x2x1 lhs_dilate=1x2x2x1",
       4},
  };
  for (ElementType type : Join({FloatTypes(), {PHAL_ELEMENT_TYPE_S32}})) {
    for (const Window& w : windows) {
      const bool max = std::string(w.variant) == "maxpool";
      const std::string combiner = max ? "maximum" : "add";
      Case c =
          NumericCase("reduce-window", w.variant, type, 2, "npot", "random", "",
                      {RandomValues()},
                      max || !IsFloat(type) ? Exact() : Accumulation(w.terms));
      c.module_text =
          ModuleText(c.id, {BinaryComputation("combine", combiner, type)},
                     {ParameterLine(0, type, w.in),
                      "init = " + ShapeText(type, {}) + " constant(" +
                          ConstantText(type, max ? "lowest" : "zero") + ")",
                      "ROOT r = " + ShapeText(type, w.out) +
                          " reduce-window(p0, init), window={" + w.window +
                          "}, to_apply=combine"});
      cases->push_back(std::move(c));
    }
  }
}

// jax.lax.cumlogsumexp as JAX exports it: a reduce-window over the whole
// prefix whose reducer calls a private logaddexp function (max plus
// log1p(exp(-|a - b|)), a + b where that is NaN: equal infinities).
void AddCumulativeLogSumExpCases(std::vector<Case>* cases) {
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64}) {
    const std::string s = ShapeText(type, {});
    const std::string logaddexp =
        "logaddexp {\n  a = " + s + " parameter(0)\n  b = " + s +
        " parameter(1)\n  m = " + s + " maximum(a, b)\n  d = " + s +
        " subtract(a, b)\n  nan = pred[] compare(d, d), direction=NE\n" +
        "  sum = " + s + " add(a, b)\n  ad = " + s + " abs(d)\n  n = " + s +
        " negate(ad)\n  e = " + s + " exponential(n)\n  l = " + s +
        " log-plus-one(e)\n  r = " + s + " add(m, l)\n  ROOT out = " + s +
        " select(nan, sum, r)\n}\n";
    const std::string reducer = "reducer {\n  x = " + s +
                                " parameter(0)\n  y = " + s +
                                " parameter(1)\n  ROOT c = " + s +
                                " call(x, y), to_apply=logaddexp\n}\n";
    // Eight steps of four rounded functions each.
    Case c = NumericCase("reduce-window", "cumlogsumexp", type, 2, "odd",
                         "random", "", {RandomValues()}, Accumulation(32));
    c.module_text = ModuleText(
        c.id, {logaddexp, reducer},
        {ParameterLine(0, type, {8, 9}), "init = " + s + " constant(-inf)",
         "ROOT r = " + ShapeText(type, {8, 9}) +
             " reduce-window(p0, init), window={size=8x1 pad=7_0x0_0}, "
             "to_apply=reducer"});
    cases->push_back(std::move(c));
  }
}

struct DotShape {
  const char* shape_class;
  std::vector<int64_t> lhs;
  std::vector<int64_t> rhs;
  std::vector<int64_t> out;
  std::string dimensions;
  int64_t terms;
};

std::vector<DotShape> DotShapes() {
  const std::string matmul =
      "lhs_contracting_dims={1}, rhs_contracting_dims={0}";
  return {
      {"1d",
       {37},
       {37},
       {},
       "lhs_contracting_dims={0}, rhs_contracting_dims={0}",
       37},
      {"matvec", {7, 13}, {13}, {7}, matmul, 13},
      {"odd", {7, 13}, {13, 11}, {7, 11}, matmul, 13},
      {"batch",
       {3, 5, 12},
       {3, 12, 7},
       {3, 5, 7},
       "lhs_batch_dims={0}, lhs_contracting_dims={2}, rhs_batch_dims={0}, "
       "rhs_contracting_dims={1}",
       12},
      {"transposed",
       {13, 7},
       {11, 13},
       {7, 11},
       "lhs_contracting_dims={0}, rhs_contracting_dims={1}",
       13},
      {"empty_k", {4, 0}, {0, 5}, {4, 5}, matmul, 0},
      {"large", {64, 256}, {256, 96}, {64, 96}, matmul, 256},
  };
}

void AddDotCases(std::vector<Case>* cases) {
  const std::vector<ElementType> types =
      Join({FloatTypes(),
            {PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_U8,
             PHAL_ELEMENT_TYPE_S64},
            ComplexTypes()});
  for (ElementType type : types) {
    for (const DotShape& shape : DotShapes()) {
      const std::string sc = shape.shape_class;
      if (type != PHAL_ELEMENT_TYPE_F32 && sc != "odd" && sc != "batch" &&
          sc != "large") {
        continue;
      }
      Case c = NumericCase(
          "dot", "", type, IsComplex(type) ? 3 : 1, shape.shape_class, "random",
          "", {RandomValues(-2, 2), RandomValues(-2, 2)},
          IsFloat(type) || IsComplex(type) ? Accumulation(shape.terms)
                                           : Exact());
      c.module_text = ModuleText(
          c.id, {},
          {ParameterLine(0, type, shape.lhs), ParameterLine(1, type, shape.rhs),
           "ROOT r = " + ShapeText(type, shape.out) + " dot(p0, p1), " +
               shape.dimensions});
      cases->push_back(std::move(c));
    }
  }
  // A mixed-precision dot: bf16 operands accumulated into f32.
  Case mixed = NumericCase("dot", "bf16_to_f32", PHAL_ELEMENT_TYPE_F32, 1,
                           "odd", "random", "", {}, Accumulation(64));
  mixed.module_text =
      ModuleText(mixed.id, {},
                 {ParameterLine(0, PHAL_ELEMENT_TYPE_BF16, {9, 64}),
                  ParameterLine(1, PHAL_ELEMENT_TYPE_BF16, {64, 10}),
                  "a = f32[9,64] convert(p0)", "b = f32[64,10] convert(p1)",
                  "ROOT r = f32[9,10] dot(a, b), lhs_contracting_dims={1}, "
                  "rhs_contracting_dims={0}"});
  cases->push_back(std::move(mixed));
  // f32 operands rounded to a 16-bit type before the dot, as JAX writes a
  // bf16 matmul of f32 arrays: the rounding must happen, whether the
  // products sum in f32 or in the 16-bit type.
  for (ElementType narrow : {PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F16}) {
    const std::string name = ElementTypeName(narrow);
    for (ElementType result : {PHAL_ELEMENT_TYPE_F32, narrow}) {
      Case c = NumericCase(
          "dot", std::string("f32_through_") + name, result, 1, "odd", "random",
          "", {RandomValues(-2, 2), RandomValues(-2, 2)}, Accumulation(64));
      c.module_text =
          ModuleText(c.id, {},
                     {ParameterLine(0, PHAL_ELEMENT_TYPE_F32, {9, 64}),
                      ParameterLine(1, PHAL_ELEMENT_TYPE_F32, {64, 10}),
                      "a = " + ShapeText(narrow, {9, 64}) + " convert(p0)",
                      "b = " + ShapeText(narrow, {64, 10}) + " convert(p1)",
                      "ROOT r = " + ShapeText(result, {9, 10}) +
                          " dot(a, b), lhs_contracting_dims={1}, "
                          "rhs_contracting_dims={0}"});
      cases->push_back(std::move(c));
    }
  }
}

// A convolution of f32 input and kernel rounded to bf16 first, summed in
// f32.
void AddMixedPrecisionConvolutionCase(std::vector<Case>* cases) {
  Case c =
      NumericCase("convolution", "f32_through_bf16", PHAL_ELEMENT_TYPE_F32, 1,
                  "odd", "random", "",
                  {RandomValues(-2, 2), RandomValues(-2, 2)}, Accumulation(27));
  c.module_text = ModuleText(
      c.id, {},
      {ParameterLine(0, PHAL_ELEMENT_TYPE_F32, {2, 9, 9, 3}),
       ParameterLine(1, PHAL_ELEMENT_TYPE_F32, {3, 3, 3, 4}),
       "x = bf16[2,9,9,3] convert(p0)", "w = bf16[3,3,3,4] convert(p1)",
       "ROOT r = f32[2,9,9,4] convolution(x, w), window={size=3x3 "
       "pad=1_1x1_1}, dim_labels=b01f_01io->b01f"});
  cases->push_back(std::move(c));
}

void AddConvolutionCases(std::vector<Case>* cases) {
  AddMixedPrecisionConvolutionCase(cases);
  struct Conv {
    const char* variant;
    std::vector<int64_t> input;
    std::vector<int64_t> kernel;
    std::vector<int64_t> out;
    std::string attributes;
  };
  const std::vector<Conv> convs = {
      {"same",
       {2, 9, 9, 3},
       {3, 3, 3, 4},
       {2, 9, 9, 4},
       "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"},
      {"strided",
       {2, 9, 9, 3},
       {3, 3, 3, 5},
       {2, 4, 4, 5},
       "window={size=3x3 stride=2x2}, dim_labels=b01f_01io->b01f"},
      {"dilated",
       {1, 11, 11, 2},
       {3, 3, 2, 3},
       {1, 7, 7, 3},
       "window={size=3x3 rhs_dilate=2x2}, dim_labels=b01f_01io->b01f"},
      {"transposed",
       {1, 5, 5, 2},
       {3, 3, 2, 3},
       {1, 11, 11, 3},
       "window={size=3x3 pad=2_2x2_2 lhs_dilate=2x2}, "
       "dim_labels=b01f_01io->b01f"},
      {"grouped",
       {2, 7, 7, 4},
       {3, 3, 2, 6},
       {2, 5, 5, 6},
       "window={size=3x3}, dim_labels=b01f_01io->b01f, feature_group_count=2"},
      {"nchw",
       {2, 3, 8, 8},
       {4, 3, 3, 3},
       {2, 4, 8, 8},
       "window={size=3x3 pad=1_1x1_1}, dim_labels=bf01_oi01->bf01"},
      {"1d",
       {2, 17, 3},
       {5, 3, 4},
       {2, 13, 4},
       "window={size=5}, dim_labels=b0f_0io->b0f"},
      {"batch_grouped",
       {4, 6, 6, 3},
       {3, 3, 3, 6},
       {2, 4, 4, 6},
       "window={size=3x3}, dim_labels=b01f_01io->b01f, batch_group_count=2"},
      {"asymmetric",
       {1, 9, 9, 2},
       {3, 3, 2, 3},
       {1, 5, 4, 3},
       "window={size=3x3 stride=2x2 pad=0_2x1_0}, dim_labels=b01f_01io->b01f"},
      {"large",
       {4, 32, 32, 16},
       {3, 3, 16, 32},
       {4, 32, 32, 32},
       "window={size=3x3 pad=1_1x1_1}, dim_labels=b01f_01io->b01f"},
  };
  for (ElementType type : FloatTypes()) {
    for (const Conv& conv : convs) {
      // Terms per output: the kernel's window times its input features.
      const int64_t terms = Product(conv.kernel) / conv.kernel.back();
      Case c = NumericCase(
          "convolution", conv.variant, type, 2, "npot", "random", "",
          {RandomValues(-2, 2), RandomValues(-2, 2)}, Accumulation(terms));
      c.module_text =
          ModuleText(c.id, {},
                     {ParameterLine(0, type, conv.input),
                      ParameterLine(1, type, conv.kernel),
                      "ROOT r = " + ShapeText(type, conv.out) +
                          " convolution(p0, p1), " + conv.attributes});
      cases->push_back(std::move(c));
    }
  }
}

// Average pooling as frameworks write it: a windowed sum, then a divide.
void AddAveragePoolCases(std::vector<Case>* cases) {
  for (ElementType type : FloatTypes()) {
    const std::string t = ShapeText(type, {});
    Case c = NumericCase("reduce-window", "avgpool", type, 2, "npot", "random",
                         "", {RandomValues()}, Accumulation(9));
    c.module_text = ModuleText(
        c.id, {BinaryComputation("combine", "add", type)},
        {ParameterLine(0, type, {2, 9, 9, 4}), "zero = " + t + " constant(0)",
         "sum = " + ShapeText(type, {2, 4, 4, 4}) +
             " reduce-window(p0, zero), window={size=1x3x3x1 stride=1x2x2x1}, "
             "to_apply=combine",
         "nine = " + t + " constant(9)",
         "n = " + ShapeText(type, {2, 4, 4, 4}) +
             " broadcast(nine), dimensions={}",
         "ROOT r = " + ShapeText(type, {2, 4, 4, 4}) + " divide(sum, n)"});
    cases->push_back(std::move(c));
  }
}

void AddBatchNormCases(std::vector<Case>* cases) {
  // Channels second (NCHW), as PyTorch lays them out.
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F16}) {
    const std::string x = ShapeText(type, {2, 6, 5, 5});
    const std::string v = ShapeText(type, {6});
    Case c = NumericCase(
        "batch-norm-training", "nchw", type, 2, "npot", "random", "",
        {RandomValues(), RandomValues(), RandomValues()}, Accumulation(50));
    c.module_text =
        ModuleText(c.id, {},
                   {ParameterLine(0, type, {2, 6, 5, 5}),
                    ParameterLine(1, type, {6}), ParameterLine(2, type, {6}),
                    "ROOT r = (" + x + ", " + v + ", " + v +
                        ") batch-norm-training(p0, p1, p2), epsilon=0.001, "
                        "feature_index=1"});
    cases->push_back(std::move(c));
  }
  for (ElementType type : FloatTypes()) {
    const std::string x = ShapeText(type, {4, 5, 5, 6});
    const std::string v = ShapeText(type, {6});
    const std::string attributes = "epsilon=0.001, feature_index=3";
    const int64_t terms = 4 * 5 * 5;
    Case inference =
        NumericCase("batch-norm-inference", "", type, 2, "npot", "random", "",
                    {RandomValues(), RandomValues(), RandomValues(),
                     RandomValues(), RandomValues(0.5, 2)},
                    Accumulation(8));
    inference.module_text = ModuleText(
        inference.id, {},
        {ParameterLine(0, type, {4, 5, 5, 6}), ParameterLine(1, type, {6}),
         ParameterLine(2, type, {6}), ParameterLine(3, type, {6}),
         ParameterLine(4, type, {6}),
         "ROOT r = " + x + " batch-norm-inference(p0, p1, p2, p3, p4), " +
             attributes});
    cases->push_back(std::move(inference));
    Case training = NumericCase(
        "batch-norm-training", "", type, 2, "npot", "random", "",
        {RandomValues(), RandomValues(), RandomValues()}, Accumulation(terms));
    training.module_text =
        ModuleText(training.id, {},
                   {ParameterLine(0, type, {4, 5, 5, 6}),
                    ParameterLine(1, type, {6}), ParameterLine(2, type, {6}),
                    "ROOT r = (" + x + ", " + v + ", " + v +
                        ") batch-norm-training(p0, p1, p2), " + attributes});
    cases->push_back(std::move(training));
    Case grad =
        NumericCase("batch-norm-grad", "", type, 2, "npot", "random", "",
                    {RandomValues(), RandomValues(), RandomValues(),
                     RandomValues(0.5, 2), RandomValues()},
                    Accumulation(terms));
    grad.module_text = ModuleText(
        grad.id, {},
        {ParameterLine(0, type, {4, 5, 5, 6}), ParameterLine(1, type, {6}),
         ParameterLine(2, type, {6}), ParameterLine(3, type, {6}),
         ParameterLine(4, type, {4, 5, 5, 6}),
         "ROOT r = (" + x + ", " + v + ", " + v +
             ") batch-norm-grad(p0, p1, p2, p3, p4), " + attributes});
    cases->push_back(std::move(grad));
  }
}

void AddSelectAndScatterCases(std::vector<Case>* cases) {
  // Overlapping, padded windows: one operand element can be selected by
  // several windows and receives their sum.
  for (ElementType type : {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F64}) {
    Case c = NumericCase("select-and-scatter", "overlapping", type, 2, "odd",
                         "random", "", {RandomValues(), RandomValues()},
                         Accumulation(9));
    c.module_text = ModuleText(
        c.id,
        {BinaryComputation("select", "compare", type, ", direction=GE"),
         BinaryComputation("scatter", "add", type)},
        {ParameterLine(0, type, {1, 9, 9, 2}),
         ParameterLine(1, type, {1, 5, 5, 2}),
         "zero = " + ShapeText(type, {}) + " constant(0)",
         "ROOT r = " + ShapeText(type, {1, 9, 9, 2}) +
             " select-and-scatter(p0, p1, zero), window={size=1x3x3x1 "
             "stride=1x2x2x1 pad=0_0x1_1x1_1x0_0}, select=select, "
             "scatter=scatter"});
    cases->push_back(std::move(c));
  }
  for (ElementType type : FloatTypes()) {
    Case c = NumericCase("select-and-scatter", "maxpool_grad", type, 2, "npot",
                         "random", "", {RandomValues(), RandomValues()},
                         Accumulation(4));
    c.module_text = ModuleText(
        c.id,
        {BinaryComputation("select", "compare", type, ", direction=GE"),
         BinaryComputation("scatter", "add", type)},
        {ParameterLine(0, type, {2, 8, 8, 3}),
         ParameterLine(1, type, {2, 4, 4, 3}),
         "zero = " + ShapeText(type, {}) + " constant(0)",
         "ROOT r = " + ShapeText(type, {2, 8, 8, 3}) +
             " select-and-scatter(p0, p1, zero), window={size=1x2x2x1 "
             "stride=1x2x2x1}, select=select, scatter=scatter"});
    cases->push_back(std::move(c));
  }
}

}  // namespace

std::vector<Case> ReductionCases() {
  std::vector<Case> cases;
  AddReduceCases(&cases);
  AddReduceWindowCases(&cases);
  AddCumulativeLogSumExpCases(&cases);
  AddDotCases(&cases);
  AddConvolutionCases(&cases);
  AddAveragePoolCases(&cases);
  AddBatchNormCases(&cases);
  AddSelectAndScatterCases(&cases);
  return cases;
}

}  // namespace phal::conformance
