// Every KIR node op on every element type it accepts, on edge values (NaN,
// +-inf, -0, subnormals, integer limits, zero divisors, out-of-range shift
// amounts) and random ones, against the StableHLO semantics computed here
// in wider types. Many ops share one loop kernel per element type: a JIT
// compile costs more than a thousand elements.
#include <bit>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "sdk/base/element_types.h"
#include "sdk/base/float16.h"
#include "sdk/kir/kernel.h"
#include "sdk/plugin_testing/plugin_test.h"

namespace phal::cpu {
namespace {
using ::phal::plugin_testing::PluginTest;
using ::phal::plugin_testing::ToBytes;

using Complex = std::complex<double>;

constexpr phal_element_type_t kPred = PHAL_ELEMENT_TYPE_PRED;

// ---- real values in storage ---------------------------------------------

// `value` rounded to the float type `type` (to nearest even, once).
double RoundToFloat(phal_element_type_t type, double value) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16:
      return HalfToFloat(DoubleToHalf(value));
    case PHAL_ELEMENT_TYPE_BF16:
      return BFloat16ToFloat(DoubleToBFloat16(value));
    case PHAL_ELEMENT_TYPE_F32:
      return static_cast<float>(value);
    default:
      return value;
  }
}

// Stores a float value exactly representable in `type`.
void StoreFloat(phal_element_type_t type, double value, uint8_t* out) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16: {
      const uint16_t bits = DoubleToHalf(value);
      std::memcpy(out, &bits, 2);
      return;
    }
    case PHAL_ELEMENT_TYPE_BF16: {
      const uint16_t bits = DoubleToBFloat16(value);
      std::memcpy(out, &bits, 2);
      return;
    }
    case PHAL_ELEMENT_TYPE_F32: {
      const float narrow = static_cast<float>(value);
      std::memcpy(out, &narrow, 4);
      return;
    }
    default:
      std::memcpy(out, &value, 8);
  }
}

double LoadFloat(phal_element_type_t type, const uint8_t* in) {
  switch (type) {
    case PHAL_ELEMENT_TYPE_F16: {
      uint16_t bits;
      std::memcpy(&bits, in, 2);
      return HalfToFloat(bits);
    }
    case PHAL_ELEMENT_TYPE_BF16: {
      uint16_t bits;
      std::memcpy(&bits, in, 2);
      return BFloat16ToFloat(bits);
    }
    case PHAL_ELEMENT_TYPE_F32: {
      float value;
      std::memcpy(&value, in, 4);
      return value;
    }
    default: {
      double value;
      std::memcpy(&value, in, 8);
      return value;
    }
  }
}

// Integers (and pred) travel as their two's complement bits in a uint64_t.
void StoreInteger(phal_element_type_t type, uint64_t bits, uint8_t* out) {
  std::memcpy(out, &bits, static_cast<size_t>(StorageBytes(type)));
}

uint64_t LoadInteger(phal_element_type_t type, const uint8_t* in) {
  uint64_t bits = 0;
  std::memcpy(&bits, in, static_cast<size_t>(StorageBytes(type)));
  const int width = static_cast<int>(StorageBytes(type) * 8);
  if (IsSigned(type) && width < 64 && ((bits >> (width - 1)) & 1) != 0) {
    bits |= ~uint64_t{0} << width;  // sign-extend
  }
  return bits;
}

// Distance in representable values; NaN matches NaN.
uint64_t UlpDistance(phal_element_type_t type, double a, double b) {
  if (std::isnan(a) || std::isnan(b)) {
    return std::isnan(a) && std::isnan(b) ? 0 : ~uint64_t{0};
  }
  if (a == b) return 0;
  auto key = [&](double v) -> int64_t {
    uint8_t bytes[8] = {};
    StoreFloat(type, v, bytes);
    const int64_t width = StorageBytes(type) * 8;
    uint64_t bits = 0;
    std::memcpy(&bits, bytes, static_cast<size_t>(width / 8));
    const uint64_t sign = uint64_t{1} << (width - 1);
    return (bits & sign) != 0 ? -static_cast<int64_t>(bits & (sign - 1))
                              : static_cast<int64_t>(bits);
  };
  const int64_t difference = key(a) - key(b);
  return static_cast<uint64_t>(difference < 0 ? -difference : difference);
}

// ---- one kernel, many ops ---------------------------------------------------

// A loop over [count] reading operand buffers 0 (x) and 1 (y) of `type` and
// writing one output buffer per added op. Expectations are checked per
// output after Run.
class OpBatch {
 public:
  OpBatch(phal_element_type_t type, int64_t count) : count_(count) {
    x_buffer_ = kernel_.AddBuffer(type, {count});
    y_buffer_ = kernel_.AddBuffer(type, {count});
    kernel_.dims = {count};
    KirBody& b = kernel_.body;
    x_ = b.Read(type, x_buffer_, {b.Index(0)});
    y_ = b.Read(type, y_buffer_, {b.Index(0)});
  }

  KirBody& body() { return kernel_.body; }
  uint32_t x() const { return x_; }
  uint32_t y() const { return y_; }

  // Makes `node` (of type `result_type`) an output; returns its index.
  size_t Output(uint32_t node, phal_element_type_t result_type,
                std::string label) {
    kernel_.outputs.push_back(
        kernel_.AddBuffer(result_type, {count_}, PHAL_KIR_ACCESS_WRITE));
    kernel_.body.AddResult(node);
    labels_.push_back(std::move(label));
    types_.push_back(result_type);
    return labels_.size() - 1;
  }
  size_t Unary(phal_kir_op_t op, phal_element_type_t result_type,
               std::string label) {
    return Output(kernel_.body.Add(op, result_type, {x_}), result_type, label);
  }
  size_t Binary(phal_kir_op_t op, phal_element_type_t result_type,
                std::string label) {
    return Output(kernel_.body.Add(op, result_type, {x_, y_}), result_type,
                  label);
  }

  // Emits and runs the kernel over x and y (raw bytes of `type`).
  void Run(PluginTest& test, std::vector<uint8_t> x, std::vector<uint8_t> y) {
    contents_ = {std::move(x), std::move(y)};
    for (phal_element_type_t type : types_) {
      contents_.emplace_back(static_cast<size_t>(count_ * StorageBytes(type)),
                             0xEE);
    }
    runner_(test, kernel_.Desc(), contents_);
  }

  const uint8_t* element(size_t output, int64_t i) const {
    return contents_[2 + output].data() + i * StorageBytes(types_[output]);
  }
  const std::string& label(size_t output) const { return labels_[output]; }
  phal_element_type_t output_type(size_t output) const {
    return types_[output];
  }
  size_t output_count() const { return labels_.size(); }

  using Runner = void (*)(PluginTest&, const phal_kernel_desc_t&,
                          std::vector<std::vector<uint8_t>>&);
  static inline Runner runner_ = nullptr;

 private:
  int64_t count_;
  KirKernel kernel_{"test_kernel", PHAL_KERNEL_KIND_LOOP};
  uint32_t x_buffer_ = 0, y_buffer_ = 0, x_ = 0, y_ = 0;
  std::vector<std::string> labels_;
  std::vector<phal_element_type_t> types_;
  std::vector<std::vector<uint8_t>> contents_;
};

class OpsTest : public PluginTest {
 protected:
  void SetUp() override {
    PluginTest::SetUp();
    OpBatch::runner_ = [](PluginTest& test, const phal_kernel_desc_t& desc,
                          std::vector<std::vector<uint8_t>>& contents) {
      auto& self = static_cast<OpsTest&>(test);
      self.Run(self.Emit(desc), contents);
    };
  }
};

// ---- floats
// -------------------------------------------------------------------

double FloatSign(double x) {
  if (std::isnan(x) || x == 0) return x;
  return x > 0 ? 1 : -1;
}
double FloatMaximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}
double FloatMinimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return NAN;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
int64_t TotalOrderKey(double x) {
  const int64_t bits = std::bit_cast<int64_t>(x);
  return bits < 0 ? static_cast<int64_t>(bits ^ INT64_MAX) : bits;
}
bool CompareFloats(phal_kir_comparison_direction_t direction, bool total,
                   double a, double b) {
  if (total) {
    const int64_t x = TotalOrderKey(a), y = TotalOrderKey(b);
    switch (direction) {
      case PHAL_KIR_COMPARE_EQ:
        return x == y;
      case PHAL_KIR_COMPARE_NE:
        return x != y;
      case PHAL_KIR_COMPARE_LT:
        return x < y;
      case PHAL_KIR_COMPARE_LE:
        return x <= y;
      case PHAL_KIR_COMPARE_GT:
        return x > y;
      default:
        return x >= y;
    }
  }
  switch (direction) {
    case PHAL_KIR_COMPARE_EQ:
      return a == b;
    case PHAL_KIR_COMPARE_NE:
      return a != b;
    case PHAL_KIR_COMPARE_LT:
      return a < b;
    case PHAL_KIR_COMPARE_LE:
      return a <= b;
    case PHAL_KIR_COMPARE_GT:
      return a > b;
    default:
      return a >= b;
  }
}

std::vector<double> FloatEdgeValues(phal_element_type_t type) {
  double max = std::numeric_limits<double>::max();
  double min_normal = std::numeric_limits<double>::min();
  double denorm = std::numeric_limits<double>::denorm_min();
  if (type == PHAL_ELEMENT_TYPE_F16) {
    max = 65504;
    min_normal = std::ldexp(1.0, -14);
    denorm = std::ldexp(1.0, -24);
  } else if (type == PHAL_ELEMENT_TYPE_BF16) {
    max = BFloat16ToFloat(0x7F7F);
    min_normal = std::numeric_limits<float>::min();
    denorm = BFloat16ToFloat(0x0001);
  } else if (type == PHAL_ELEMENT_TYPE_F32) {
    max = std::numeric_limits<float>::max();
    min_normal = std::numeric_limits<float>::min();
    denorm = std::numeric_limits<float>::denorm_min();
  }
  return {NAN,  -NAN,       INFINITY, -INFINITY, 0.0, -0.0, 1,   -1,   0.5,
          -0.5, 1.5,        2.5,      -2.5,      3.7, -3.7, 100, 1e-3, max,
          -max, min_normal, denorm,   -denorm,   0.1, 7,    -7};
}

// x and y over every pair of edge values, then random values.
void MakeOperands(phal_element_type_t type, const std::vector<double>& edges,
                  int64_t random_count, std::vector<double>* x,
                  std::vector<double>* y) {
  std::mt19937_64 random(1234 + type);
  std::uniform_real_distribution<double> uniform(-12, 12);
  for (double a : edges) {
    for (double b : edges) {
      x->push_back(a);
      y->push_back(b);
    }
  }
  for (int64_t i = 0; i < random_count; ++i) {
    x->push_back(RoundToFloat(type, uniform(random)));
    y->push_back(RoundToFloat(type, uniform(random) * 10));
  }
}

std::vector<uint8_t> FloatBytes(phal_element_type_t type,
                                const std::vector<double>& values) {
  std::vector<uint8_t> bytes(values.size() * StorageBytes(type));
  for (size_t i = 0; i < values.size(); ++i) {
    StoreFloat(type, values[i], bytes.data() + i * StorageBytes(type));
  }
  return bytes;
}

struct FloatUnary {
  phal_kir_op_t op;
  const char* name;
  double (*reference)(double);
  bool transcendental;
};

struct FloatBinary {
  phal_kir_op_t op;
  const char* name;
  double (*reference)(double, double);
  bool transcendental;
};

const FloatUnary kFloatUnary[] = {
    {PHAL_KIR_OP_ABS, "abs", [](double x) { return std::fabs(x); }, false},
    {PHAL_KIR_OP_NEGATE, "negate", [](double x) { return -x; }, false},
    {PHAL_KIR_OP_SIGN, "sign", FloatSign, false},
    {PHAL_KIR_OP_FLOOR, "floor", [](double x) { return std::floor(x); }, false},
    {PHAL_KIR_OP_CEIL, "ceil", [](double x) { return std::ceil(x); }, false},
    {PHAL_KIR_OP_ROUND_NEAREST_AFZ, "round_afz",
     [](double x) { return std::round(x); }, false},
    {PHAL_KIR_OP_ROUND_NEAREST_EVEN, "round_even",
     [](double x) { return std::nearbyint(x); }, false},
    {PHAL_KIR_OP_SQRT, "sqrt", [](double x) { return std::sqrt(x); }, false},
    {PHAL_KIR_OP_EXP, "exp", [](double x) { return std::exp(x); }, true},
    {PHAL_KIR_OP_EXPM1, "expm1", [](double x) { return std::expm1(x); }, true},
    {PHAL_KIR_OP_LOG, "log", [](double x) { return std::log(x); }, true},
    {PHAL_KIR_OP_LOG1P, "log1p", [](double x) { return std::log1p(x); }, true},
    {PHAL_KIR_OP_LOGISTIC, "logistic",
     [](double x) { return 1.0 / (1.0 + std::exp(-x)); }, true},
    {PHAL_KIR_OP_RSQRT, "rsqrt", [](double x) { return 1.0 / std::sqrt(x); },
     true},
    {PHAL_KIR_OP_CBRT, "cbrt", [](double x) { return std::cbrt(x); }, true},
    {PHAL_KIR_OP_TANH, "tanh", [](double x) { return std::tanh(x); }, true},
    {PHAL_KIR_OP_SIN, "sin", [](double x) { return std::sin(x); }, true},
    {PHAL_KIR_OP_COS, "cos", [](double x) { return std::cos(x); }, true},
    {PHAL_KIR_OP_TAN, "tan", [](double x) { return std::tan(x); }, true},
    {PHAL_KIR_OP_ERF, "erf", [](double x) { return std::erf(x); }, true},
    {PHAL_KIR_OP_REAL, "real", [](double x) { return x; }, false},
    {PHAL_KIR_OP_IMAG, "imag", [](double) { return 0.0; }, false},
};

const FloatBinary kFloatBinary[] = {
    {PHAL_KIR_OP_ADD, "add", [](double x, double y) { return x + y; }, false},
    {PHAL_KIR_OP_SUBTRACT, "subtract", [](double x, double y) { return x - y; },
     false},
    {PHAL_KIR_OP_MULTIPLY, "multiply", [](double x, double y) { return x * y; },
     false},
    {PHAL_KIR_OP_DIVIDE, "divide", [](double x, double y) { return x / y; },
     false},
    {PHAL_KIR_OP_REMAINDER, "remainder",
     [](double x, double y) { return std::fmod(x, y); }, false},
    {PHAL_KIR_OP_MAXIMUM, "maximum", FloatMaximum, false},
    {PHAL_KIR_OP_MINIMUM, "minimum", FloatMinimum, false},
    {PHAL_KIR_OP_POWER, "power",
     [](double x, double y) { return std::pow(x, y); }, true},
    {PHAL_KIR_OP_ATAN2, "atan2",
     [](double x, double y) { return std::atan2(x, y); }, true},
};

std::string FloatTypeName(
    const testing::TestParamInfo<phal_element_type_t>& info) {
  static const char* kNames[] = {"f16", "bf16", "f32", "f64"};
  return kNames[info.param - PHAL_ELEMENT_TYPE_F16];
}

class FloatOpsTest : public OpsTest,
                     public testing::WithParamInterface<phal_element_type_t> {};

TEST_P(FloatOpsTest, EveryFloatOpMatchesStableHloSemantics) {
  const phal_element_type_t type = GetParam();
  std::vector<double> x, y;
  std::vector<double> edges = FloatEdgeValues(type);
  for (double& edge : edges) edge = RoundToFloat(type, edge);
  MakeOperands(type, edges, 300, &x, &y);
  const int64_t count = static_cast<int64_t>(x.size());
  OpBatch batch(type, count);
  KirBody& b = batch.body();
  std::vector<std::pair<size_t, const FloatUnary*>> unary;
  for (const FloatUnary& op : kFloatUnary) {
    unary.push_back({batch.Unary(op.op, type, op.name), &op});
  }
  std::vector<std::pair<size_t, const FloatBinary*>> binary;
  for (const FloatBinary& op : kFloatBinary) {
    binary.push_back({batch.Binary(op.op, type, op.name), &op});
  }
  const size_t is_finite =
      batch.Unary(PHAL_KIR_OP_IS_FINITE, kPred, "is_finite");
  std::vector<std::pair<size_t, std::pair<int, bool>>> compares;
  for (int direction = 0; direction < 6; ++direction) {
    for (bool total : {false, true}) {
      const uint32_t node = b.Compare(
          static_cast<phal_kir_comparison_direction_t>(direction),
          total ? PHAL_KIR_COMPARISON_TOTALORDER : PHAL_KIR_COMPARISON_FLOAT,
          batch.x(), batch.y());
      compares.push_back({batch.Output(node, kPred,
                                       "compare " + std::to_string(direction) +
                                           (total ? " totalorder" : " float")),
                          {direction, total}});
    }
  }
  uint8_t low_bytes[8] = {}, high_bytes[8] = {};
  StoreFloat(type, -1.5, low_bytes);
  StoreFloat(type, 2.0, high_bytes);
  uint64_t low = 0, high = 0;
  std::memcpy(&low, low_bytes, 8);
  std::memcpy(&high, high_bytes, 8);
  const size_t clamp = batch.Output(
      b.Add(PHAL_KIR_OP_CLAMP, type,
            {b.Constant(type, low), batch.x(), b.Constant(type, high)}),
      type, "clamp");
  const uint32_t less = b.Compare(
      PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_FLOAT, batch.x(), batch.y());
  const size_t select = batch.Output(
      b.Add(PHAL_KIR_OP_SELECT, type, {less, batch.x(), batch.y()}), type,
      "select");

  batch.Run(*this, FloatBytes(type, x), FloatBytes(type, y));

  const bool narrow =
      type == PHAL_ELEMENT_TYPE_F16 || type == PHAL_ELEMENT_TYPE_BF16;
  // f32 exp, tanh, logistic and erf compute inline in f32 arithmetic,
  // within 2.5 ulp (inline_math.h); the other transcendental functions are
  // the library's, correctly rounded in f32 and f64.
  auto inline_ulps = [&](phal_kir_op_t op) -> uint64_t {
    const bool is_inline = op == PHAL_KIR_OP_EXP || op == PHAL_KIR_OP_TANH ||
                           op == PHAL_KIR_OP_LOGISTIC || op == PHAL_KIR_OP_ERF;
    return is_inline && type == PHAL_ELEMENT_TYPE_F32 ? 3 : 0;
  };
  auto check = [&](size_t output, int64_t i, double expected,
                   bool transcendental, uint64_t wide_ulps = 0) {
    const double got = LoadFloat(type, batch.element(output, i));
    const uint64_t allowed = transcendental && narrow ? 1 : wide_ulps;
    const double rounded = RoundToFloat(type, expected);
    ASSERT_LE(UlpDistance(type, got, rounded), allowed)
        << batch.label(output) << " of x=" << x[i] << " y=" << y[i]
        << ": expected " << rounded << ", got " << got;
    if (rounded == 0 && !transcendental) {
      ASSERT_EQ(std::signbit(got), std::signbit(rounded))
          << batch.label(output) << " of x=" << x[i] << " y=" << y[i]
          << ": sign of zero";
    }
  };
  for (int64_t i = 0; i < count; ++i) {
    for (const auto& [output, op] : unary) {
      check(output, i, op->reference(x[i]), op->transcendental,
            inline_ulps(op->op));
    }
    for (const auto& [output, op] : binary) {
      check(output, i, op->reference(x[i], y[i]), op->transcendental);
    }
    check(clamp, i, FloatMinimum(FloatMaximum(x[i], -1.5), 2.0), false);
    check(select, i, x[i] < y[i] ? x[i] : y[i], false);
    ASSERT_EQ(*batch.element(is_finite, i), std::isfinite(x[i]) ? 1 : 0)
        << "is_finite of " << x[i];
    for (const auto& [output, how] : compares) {
      const bool expected =
          CompareFloats(static_cast<phal_kir_comparison_direction_t>(how.first),
                        how.second, x[i], y[i]);
      ASSERT_EQ(*batch.element(output, i), expected ? 1 : 0)
          << batch.label(output) << " of x=" << x[i] << " y=" << y[i];
    }
  }
}

INSTANTIATE_TEST_SUITE_P(FloatTypes, FloatOpsTest,
                         testing::Values(PHAL_ELEMENT_TYPE_F16,
                                         PHAL_ELEMENT_TYPE_BF16,
                                         PHAL_ELEMENT_TYPE_F32,
                                         PHAL_ELEMENT_TYPE_F64),
                         FloatTypeName);

// ---- integers
// -----------------------------------------------------------------

// The StableHLO integer semantics, computed on T itself.
template <typename T>
struct IntegerReference {
  using U = std::make_unsigned_t<T>;
  static constexpr int kBits = static_cast<int>(sizeof(T) * 8);
  static T Wrap(uint64_t bits) { return static_cast<T>(static_cast<U>(bits)); }
  static T Add(T x, T y) { return Wrap(uint64_t(U(x)) + U(y)); }
  static T Subtract(T x, T y) { return Wrap(uint64_t(U(x)) - U(y)); }
  static T Multiply(T x, T y) { return Wrap(uint64_t(U(x)) * uint64_t(U(y))); }
  static bool Overflows(T x, T y) {
    return std::is_signed_v<T> && x == std::numeric_limits<T>::min() &&
           y == static_cast<T>(-1);
  }
  static T Divide(T x, T y) {
    if (y == 0) return static_cast<T>(~U{0});
    if (Overflows(x, y)) return x;
    return static_cast<T>(x / y);
  }
  static T Remainder(T x, T y) {
    if (y == 0) return x;
    if (Overflows(x, y)) return 0;
    return static_cast<T>(x % y);
  }
  static T Power(T x, T y) {
    uint64_t exponent = static_cast<uint64_t>(static_cast<U>(y));
    if constexpr (std::is_signed_v<T>) {
      if (y < 0) {
        if (x != 1 && x != -1) return 0;
        exponent = uint64_t{0} - static_cast<uint64_t>(static_cast<int64_t>(y));
      }
    }
    uint64_t base = static_cast<uint64_t>(static_cast<int64_t>(x)), result = 1;
    while (exponent != 0) {
      if (exponent & 1) result *= base;
      base *= base;
      exponent >>= 1;
    }
    return Wrap(result);
  }
  static bool OutOfRange(T amount) {
    return static_cast<uint64_t>(static_cast<U>(amount)) >= uint64_t(kBits);
  }
  static T ShiftLeft(T x, T y) {
    return OutOfRange(y) ? T{0} : Wrap(uint64_t(U(x)) << U(y));
  }
  static T ShiftRightLogical(T x, T y) {
    return OutOfRange(y) ? T{0} : static_cast<T>(U(x) >> U(y));
  }
  static T ShiftRightArithmetic(T x, T y) {
    const int amount = OutOfRange(y) ? kBits - 1 : static_cast<int>(U(y));
    const int64_t wide =
        std::is_signed_v<T>
            ? static_cast<int64_t>(x)
            : static_cast<int64_t>(static_cast<std::make_signed_t<T>>(x));
    return Wrap(static_cast<uint64_t>(wide >> amount));
  }
  static T Abs(T x) {
    if constexpr (std::is_signed_v<T>) return x < 0 ? Subtract(0, x) : x;
    return x;
  }
  static T Sign(T x) {
    if constexpr (std::is_signed_v<T>) return static_cast<T>((x > 0) - (x < 0));
    return static_cast<T>(x != 0);
  }
};

template <typename T>
void CheckIntegerOps(OpsTest& test, phal_element_type_t type) {
  using R = IntegerReference<T>;
  using L = std::numeric_limits<T>;
  const std::vector<T> edges = {T(0),
                                T(1),
                                T(-1),
                                T(2),
                                T(-2),
                                T(3),
                                T(5),
                                T(7),
                                T(-7),
                                L::min(),
                                L::max(),
                                T(L::min() + 1),
                                T(L::max() - 1),
                                T(R::kBits - 1),
                                T(R::kBits),
                                T(R::kBits + 1),
                                T(100),
                                T(-100)};
  std::vector<T> x, y;
  for (T a : edges) {
    for (T b : edges) {
      x.push_back(a);
      y.push_back(b);
    }
  }
  std::mt19937_64 random(99 + type);
  for (int i = 0; i < 200; ++i) {
    x.push_back(static_cast<T>(random()));
    y.push_back(static_cast<T>(random() >> (random() % 64)));
  }
  const int64_t count = static_cast<int64_t>(x.size());
  OpBatch batch(type, count);
  KirBody& b = batch.body();
  struct Unary {
    phal_kir_op_t op;
    const char* name;
    T (*reference)(T);
  };
  struct Binary {
    phal_kir_op_t op;
    const char* name;
    T (*reference)(T, T);
  };
  const Unary unary_ops[] = {
      {PHAL_KIR_OP_ABS, "abs", R::Abs},
      {PHAL_KIR_OP_NEGATE, "negate", [](T v) { return R::Subtract(0, v); }},
      {PHAL_KIR_OP_SIGN, "sign", R::Sign},
      {PHAL_KIR_OP_NOT, "not", [](T v) { return static_cast<T>(~v); }},
      {PHAL_KIR_OP_POPCNT, "popcnt",
       [](T v) {
         return static_cast<T>(std::popcount(static_cast<typename R::U>(v)));
       }},
      {PHAL_KIR_OP_CLZ, "clz",
       [](T v) {
         return static_cast<T>(std::countl_zero(static_cast<typename R::U>(v)));
       }},
  };
  const Binary binary_ops[] = {
      {PHAL_KIR_OP_ADD, "add", R::Add},
      {PHAL_KIR_OP_SUBTRACT, "subtract", R::Subtract},
      {PHAL_KIR_OP_MULTIPLY, "multiply", R::Multiply},
      {PHAL_KIR_OP_DIVIDE, "divide", R::Divide},
      {PHAL_KIR_OP_REMAINDER, "remainder", R::Remainder},
      {PHAL_KIR_OP_MAXIMUM, "maximum", [](T a, T c) { return std::max(a, c); }},
      {PHAL_KIR_OP_MINIMUM, "minimum", [](T a, T c) { return std::min(a, c); }},
      {PHAL_KIR_OP_POWER, "power", R::Power},
      {PHAL_KIR_OP_AND, "and", [](T a, T c) { return static_cast<T>(a & c); }},
      {PHAL_KIR_OP_OR, "or", [](T a, T c) { return static_cast<T>(a | c); }},
      {PHAL_KIR_OP_XOR, "xor", [](T a, T c) { return static_cast<T>(a ^ c); }},
      {PHAL_KIR_OP_SHIFT_LEFT, "shift_left", R::ShiftLeft},
      {PHAL_KIR_OP_SHIFT_RIGHT_ARITHMETIC, "shift_right_arithmetic",
       R::ShiftRightArithmetic},
      {PHAL_KIR_OP_SHIFT_RIGHT_LOGICAL, "shift_right_logical",
       R::ShiftRightLogical},
  };
  std::vector<size_t> unary_outputs, binary_outputs, compare_outputs;
  for (const Unary& op : unary_ops) {
    unary_outputs.push_back(batch.Unary(op.op, type, op.name));
  }
  for (const Binary& op : binary_ops) {
    binary_outputs.push_back(batch.Binary(op.op, type, op.name));
  }
  const auto comparison = std::is_signed_v<T> ? PHAL_KIR_COMPARISON_SIGNED
                                              : PHAL_KIR_COMPARISON_UNSIGNED;
  for (int direction = 0; direction < 6; ++direction) {
    compare_outputs.push_back(batch.Output(
        b.Compare(static_cast<phal_kir_comparison_direction_t>(direction),
                  comparison, batch.x(), batch.y()),
        kPred, "compare " + std::to_string(direction)));
  }
  const T low = std::is_signed_v<T> ? T(-3) : T(2);
  const size_t clamp =
      batch.Output(b.Add(PHAL_KIR_OP_CLAMP, type,
                         {b.Constant(type, static_cast<uint64_t>(low)),
                          batch.x(), b.Constant(type, 100)}),
                   type, "clamp");

  batch.Run(test, ToBytes(x), ToBytes(y));

  auto got = [&](size_t output, int64_t i) {
    return static_cast<T>(LoadInteger(type, batch.element(output, i)));
  };
  for (int64_t i = 0; i < count; ++i) {
    const T a = x[i], c = y[i];
    for (size_t o = 0; o < std::size(unary_ops); ++o) {
      ASSERT_EQ(+got(unary_outputs[o], i), +unary_ops[o].reference(a))
          << unary_ops[o].name << " of " << +a;
    }
    for (size_t o = 0; o < std::size(binary_ops); ++o) {
      ASSERT_EQ(+got(binary_outputs[o], i), +binary_ops[o].reference(a, c))
          << binary_ops[o].name << " of " << +a << ", " << +c;
    }
    const bool expected[] = {a == c, a != c, a<c, a <= c, a> c, a >= c};
    for (int direction = 0; direction < 6; ++direction) {
      ASSERT_EQ(*batch.element(compare_outputs[direction], i),
                expected[direction] ? 1 : 0)
          << "compare " << direction << " of " << +a << ", " << +c;
    }
    ASSERT_EQ(+got(clamp, i), +std::min<T>(std::max<T>(a, low), T(100)))
        << "clamp of " << +a;
  }
}

using IntegerOpsTest = OpsTest;

TEST_F(IntegerOpsTest, SignedIntegerOpsMatchStableHloSemantics) {
  CheckIntegerOps<int8_t>(*this, PHAL_ELEMENT_TYPE_S8);
  CheckIntegerOps<int16_t>(*this, PHAL_ELEMENT_TYPE_S16);
  CheckIntegerOps<int32_t>(*this, PHAL_ELEMENT_TYPE_S32);
  CheckIntegerOps<int64_t>(*this, PHAL_ELEMENT_TYPE_S64);
}

TEST_F(IntegerOpsTest, UnsignedIntegerOpsMatchStableHloSemantics) {
  CheckIntegerOps<uint8_t>(*this, PHAL_ELEMENT_TYPE_U8);
  CheckIntegerOps<uint16_t>(*this, PHAL_ELEMENT_TYPE_U16);
  CheckIntegerOps<uint32_t>(*this, PHAL_ELEMENT_TYPE_U32);
  CheckIntegerOps<uint64_t>(*this, PHAL_ELEMENT_TYPE_U64);
}

TEST_F(IntegerOpsTest, PredOpsAreBooleanAlgebra) {
  const std::vector<uint8_t> x = {0, 0, 1, 1}, y = {0, 1, 0, 1};
  OpBatch batch(kPred, 4);
  KirBody& b = batch.body();
  const size_t negation = batch.Unary(PHAL_KIR_OP_NOT, kPred, "not");
  const size_t conjunction = batch.Binary(PHAL_KIR_OP_AND, kPred, "and");
  const size_t disjunction = batch.Binary(PHAL_KIR_OP_OR, kPred, "or");
  const size_t exclusive = batch.Binary(PHAL_KIR_OP_XOR, kPred, "xor");
  const size_t less =
      batch.Output(b.Compare(PHAL_KIR_COMPARE_LT, PHAL_KIR_COMPARISON_UNSIGNED,
                             batch.x(), batch.y()),
                   kPred, "less");
  const size_t select = batch.Output(
      b.Add(PHAL_KIR_OP_SELECT, kPred, {batch.x(), batch.y(), batch.x()}),
      kPred, "select");
  const size_t widened = batch.Output(
      b.Add(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_S32, {batch.y()}),
      PHAL_ELEMENT_TYPE_S32, "convert");
  batch.Run(*this, x, y);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(*batch.element(negation, i), !x[i]);
    EXPECT_EQ(*batch.element(conjunction, i), x[i] & y[i]);
    EXPECT_EQ(*batch.element(disjunction, i), x[i] | y[i]);
    EXPECT_EQ(*batch.element(exclusive, i), x[i] ^ y[i]);
    EXPECT_EQ(*batch.element(less, i), x[i] < y[i]);
    EXPECT_EQ(*batch.element(select, i), x[i] ? y[i] : x[i]);
    EXPECT_EQ(LoadInteger(PHAL_ELEMENT_TYPE_S32, batch.element(widened, i)),
              y[i]);
  }
}

// ---- complex
// ------------------------------------------------------------------

// The specification's order for complex maximum and minimum: by real part,
// then by imaginary part.
bool ComplexLess(Complex p, Complex q) {
  return p.real() != q.real() ? p.real() < q.real() : p.imag() < q.imag();
}

class ComplexOpsTest : public OpsTest,
                       public testing::WithParamInterface<phal_element_type_t> {
};

TEST_P(ComplexOpsTest, ComplexOpsMatchStdComplexInF64) {
  const phal_element_type_t type = GetParam();
  const bool wide = type == PHAL_ELEMENT_TYPE_C128;
  const phal_element_type_t part =
      wide ? PHAL_ELEMENT_TYPE_F64 : PHAL_ELEMENT_TYPE_F32;
  std::vector<Complex> x = {{1, 0}, {0, 1}, {-2, 0.5}, {0.25, -3}, {-1, -1}};
  std::vector<Complex> y = {{2, 0}, {0, -1}, {1.5, 2}, {-0.5, 0.25}, {3, -2}};
  std::mt19937_64 random(5);
  std::uniform_real_distribution<double> uniform(-3, 3);
  for (int i = 0; i < 200; ++i) {
    x.push_back({uniform(random), uniform(random)});
    y.push_back({uniform(random), uniform(random)});
  }
  auto round_part = [&](double v) { return RoundToFloat(part, v); };
  for (Complex& z : x) z = {round_part(z.real()), round_part(z.imag())};
  for (Complex& z : y) z = {round_part(z.real()), round_part(z.imag())};
  auto bytes = [&](const std::vector<Complex>& values) {
    std::vector<uint8_t> out(values.size() * StorageBytes(type));
    const int64_t half = StorageBytes(part);
    for (size_t i = 0; i < values.size(); ++i) {
      StoreFloat(part, values[i].real(), out.data() + i * 2 * half);
      StoreFloat(part, values[i].imag(), out.data() + i * 2 * half + half);
    }
    return out;
  };
  const int64_t count = static_cast<int64_t>(x.size());
  OpBatch batch(type, count);
  KirBody& b = batch.body();
  struct Op {
    phal_kir_op_t op;
    const char* name;
    Complex (*reference)(Complex, Complex);
  };
  const Op ops[] = {
      {PHAL_KIR_OP_ADD, "add", [](Complex p, Complex q) { return p + q; }},
      {PHAL_KIR_OP_SUBTRACT, "subtract",
       [](Complex p, Complex q) { return p - q; }},
      {PHAL_KIR_OP_MULTIPLY, "multiply",
       [](Complex p, Complex q) { return p * q; }},
      {PHAL_KIR_OP_DIVIDE, "divide",
       [](Complex p, Complex q) { return p / q; }},
      {PHAL_KIR_OP_POWER, "power",
       [](Complex p, Complex q) { return std::pow(p, q); }},
      {PHAL_KIR_OP_ATAN2, "atan2",
       [](Complex p, Complex q) {
         const Complex i(0, 1);
         return -i * std::log((q + i * p) / std::sqrt(q * q + p * p));
       }},
      {PHAL_KIR_OP_MAXIMUM, "maximum",
       [](Complex p, Complex q) { return ComplexLess(p, q) ? q : p; }},
      {PHAL_KIR_OP_MINIMUM, "minimum",
       [](Complex p, Complex q) { return ComplexLess(q, p) ? q : p; }},
      {PHAL_KIR_OP_CBRT, "cbrt",
       [](Complex p, Complex) { return std::pow(p, 1.0 / 3); }},
      {PHAL_KIR_OP_NEGATE, "negate", [](Complex p, Complex) { return -p; }},
      {PHAL_KIR_OP_SIGN, "sign",
       [](Complex p, Complex) { return p / std::abs(p); }},
      {PHAL_KIR_OP_EXP, "exp", [](Complex p, Complex) { return std::exp(p); }},
      {PHAL_KIR_OP_EXPM1, "expm1",
       [](Complex p, Complex) { return std::exp(p) - 1.0; }},
      {PHAL_KIR_OP_LOG, "log", [](Complex p, Complex) { return std::log(p); }},
      {PHAL_KIR_OP_LOG1P, "log1p",
       [](Complex p, Complex) { return std::log(1.0 + p); }},
      {PHAL_KIR_OP_LOGISTIC, "logistic",
       [](Complex p, Complex) { return 1.0 / (1.0 + std::exp(-p)); }},
      {PHAL_KIR_OP_SQRT, "sqrt",
       [](Complex p, Complex) { return std::sqrt(p); }},
      {PHAL_KIR_OP_RSQRT, "rsqrt",
       [](Complex p, Complex) { return 1.0 / std::sqrt(p); }},
      {PHAL_KIR_OP_TANH, "tanh",
       [](Complex p, Complex) { return std::tanh(p); }},
      {PHAL_KIR_OP_SIN, "sin", [](Complex p, Complex) { return std::sin(p); }},
      {PHAL_KIR_OP_COS, "cos", [](Complex p, Complex) { return std::cos(p); }},
      {PHAL_KIR_OP_TAN, "tan", [](Complex p, Complex) { return std::tan(p); }},
  };
  std::vector<size_t> outputs;
  for (const Op& op : ops) {
    const bool binary = op.op >= PHAL_KIR_OP_ADD;
    outputs.push_back(binary ? batch.Binary(op.op, type, op.name)
                             : batch.Unary(op.op, type, op.name));
  }
  const size_t magnitude = batch.Unary(PHAL_KIR_OP_ABS, part, "abs");
  const uint32_t real = b.Add(PHAL_KIR_OP_REAL, part, {batch.x()});
  const uint32_t imag = b.Add(PHAL_KIR_OP_IMAG, part, {batch.y()});
  const size_t assembled = batch.Output(
      b.Add(PHAL_KIR_OP_COMPLEX, type, {real, imag}), type, "complex");
  const size_t equal =
      batch.Output(b.Compare(PHAL_KIR_COMPARE_EQ, PHAL_KIR_COMPARISON_FLOAT,
                             batch.x(), batch.x()),
                   kPred, "eq");
  const size_t not_equal =
      batch.Output(b.Compare(PHAL_KIR_COMPARE_NE, PHAL_KIR_COMPARISON_FLOAT,
                             batch.x(), batch.y()),
                   kPred, "ne");
  batch.Run(*this, bytes(x), bytes(y));

  const double tolerance = wide ? 1e-13 : 2e-6;
  const int64_t half = StorageBytes(part);
  auto got = [&](size_t output, int64_t i) {
    const uint8_t* element = batch.element(output, i);
    return Complex(LoadFloat(part, element), LoadFloat(part, element + half));
  };
  for (int64_t i = 0; i < count; ++i) {
    for (size_t o = 0; o < std::size(ops); ++o) {
      const Complex expected = ops[o].reference(x[i], y[i]);
      ASSERT_LE(std::abs(got(outputs[o], i) - expected),
                tolerance * (std::abs(expected) + 1))
          << ops[o].name << " of " << x[i] << ", " << y[i] << ": expected "
          << expected << ", got " << got(outputs[o], i);
    }
    ASSERT_NEAR(LoadFloat(part, batch.element(magnitude, i)), std::abs(x[i]),
                tolerance * std::abs(x[i]));
    ASSERT_EQ(got(assembled, i), Complex(x[i].real(), y[i].imag()));
    ASSERT_EQ(*batch.element(equal, i), 1);
    ASSERT_EQ(*batch.element(not_equal, i), x[i] != y[i] ? 1 : 0);
  }
}

INSTANTIATE_TEST_SUITE_P(
    ComplexTypes, ComplexOpsTest,
    testing::Values(PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_C128),
    [](const testing::TestParamInfo<phal_element_type_t>& info) {
      return std::string(info.param == PHAL_ELEMENT_TYPE_C64 ? "c64" : "c128");
    });

// ---- conversions
// ----------------------------------------------------------------

// A source value: real types use `real` (integers exactly, as long double
// holds every 64-bit integer); complex types also `imag`.
struct SourceValue {
  long double real;
  long double imag;
};

std::vector<SourceValue> SourceValues(phal_element_type_t type) {
  std::vector<long double> reals;
  if (type == PHAL_ELEMENT_TYPE_PRED) {
    reals = {0, 1};
  } else if (IsFloat(type) || IsComplex(type)) {
    reals = {NAN,      -INFINITY,     INFINITY,     -0.0,   0,     0.5,
             -1.5,     2.5,           127.5,        -128.5, 255.5, 300.75,
             65504,    70000,         1e10,         -1e10,  3e38,  1e-8,
             16777217, -2147483904.0, 4294967296.0, 1e19,   -1e19};
  } else {
    const bool is_signed = IsSigned(type);
    const int bits = static_cast<int>(StorageBytes(type) * 8);
    const long double max =
        is_signed ? std::ldexp(1.0L, bits - 1) - 1 : std::ldexp(1.0L, bits) - 1;
    const long double min = is_signed ? -std::ldexp(1.0L, bits - 1) : 0;
    reals = {0, 1, max, min, 127, 100, 255, 7, 65535, 16777217, 123456789};
    if (is_signed) reals.insert(reals.end(), {-1, -129, -100});
    for (long double& value : reals) {
      // Wrap into the type's range as a store would.
      const long double span = std::ldexp(1.0L, bits);
      value = std::fmod(value, span);
      if (value < min) value += span;
      if (value > max) value -= span;
    }
  }
  std::vector<SourceValue> values;
  for (long double real : reals) {
    values.push_back({real, IsComplex(type) ? -real / 2 : 0});
  }
  return values;
}

void StoreSource(phal_element_type_t type, const SourceValue& value,
                 uint8_t* out) {
  if (type == PHAL_ELEMENT_TYPE_PRED || IsSigned(type) || IsUnsigned(type)) {
    const uint64_t bits =
        value.real < 0 ? static_cast<uint64_t>(static_cast<int64_t>(value.real))
                       : static_cast<uint64_t>(value.real);
    StoreInteger(type, bits, out);
    return;
  }
  if (IsComplex(type)) {
    const phal_element_type_t part = type == PHAL_ELEMENT_TYPE_C64
                                         ? PHAL_ELEMENT_TYPE_F32
                                         : PHAL_ELEMENT_TYPE_F64;
    StoreFloat(part, RoundToFloat(part, static_cast<double>(value.real)), out);
    StoreFloat(part, RoundToFloat(part, static_cast<double>(value.imag)),
               out + StorageBytes(part));
    return;
  }
  StoreFloat(type, RoundToFloat(type, static_cast<double>(value.real)), out);
}

// What the stored source value reads back as (after rounding to `type`).
SourceValue LoadSource(phal_element_type_t type, const uint8_t* in) {
  if (type == PHAL_ELEMENT_TYPE_PRED) return {static_cast<long double>(*in), 0};
  if (IsSigned(type)) {
    return {
        static_cast<long double>(static_cast<int64_t>(LoadInteger(type, in))),
        0};
  }
  if (IsUnsigned(type))
    return {static_cast<long double>(LoadInteger(type, in)), 0};
  if (IsComplex(type)) {
    const phal_element_type_t part = type == PHAL_ELEMENT_TYPE_C64
                                         ? PHAL_ELEMENT_TYPE_F32
                                         : PHAL_ELEMENT_TYPE_F64;
    return {LoadFloat(part, in), LoadFloat(part, in + StorageBytes(part))};
  }
  return {LoadFloat(type, in), 0};
}

// StableHLO convert of `value` to `to`, as the bytes it stores.
std::vector<uint8_t> ExpectedConvert(phal_element_type_t from,
                                     SourceValue value,
                                     phal_element_type_t to) {
  std::vector<uint8_t> out(static_cast<size_t>(StorageBytes(to)), 0);
  const long double real = value.real;
  if (to == PHAL_ELEMENT_TYPE_PRED) {
    out[0] = (real != 0 || value.imag != 0) ? 1 : 0;
    return out;
  }
  if (IsSigned(to) || IsUnsigned(to)) {
    const int bits = static_cast<int>(StorageBytes(to) * 8);
    if (IsFloat(from) || IsComplex(from)) {
      // Saturating; NaN becomes 0.
      const long double max = IsSigned(to) ? std::ldexp(1.0L, bits - 1) - 1
                                           : std::ldexp(1.0L, bits) - 1;
      const long double min = IsSigned(to) ? -std::ldexp(1.0L, bits - 1) : 0;
      long double clamped = std::isnan(real) ? 0 : std::trunc(real);
      clamped = std::min(max, std::max(min, clamped));
      const uint64_t stored =
          clamped < 0 ? static_cast<uint64_t>(static_cast<int64_t>(clamped))
                      : static_cast<uint64_t>(clamped);
      StoreInteger(to, stored, out.data());
      return out;
    }
    const uint64_t stored =
        real < 0 ? static_cast<uint64_t>(static_cast<int64_t>(real))
                 : static_cast<uint64_t>(real);
    StoreInteger(to, stored, out.data());  // wraps
    return out;
  }
  if (IsComplex(to)) {
    const phal_element_type_t part = to == PHAL_ELEMENT_TYPE_C64
                                         ? PHAL_ELEMENT_TYPE_F32
                                         : PHAL_ELEMENT_TYPE_F64;
    StoreFloat(part, RoundToFloat(part, static_cast<double>(real)), out.data());
    StoreFloat(part, RoundToFloat(part, static_cast<double>(value.imag)),
               out.data() + StorageBytes(part));
    return out;
  }
  StoreFloat(to, RoundToFloat(to, static_cast<double>(real)), out.data());
  return out;
}

const phal_element_type_t kAllTypes[] = {
    PHAL_ELEMENT_TYPE_PRED, PHAL_ELEMENT_TYPE_S8,   PHAL_ELEMENT_TYPE_S16,
    PHAL_ELEMENT_TYPE_S32,  PHAL_ELEMENT_TYPE_S64,  PHAL_ELEMENT_TYPE_U8,
    PHAL_ELEMENT_TYPE_U16,  PHAL_ELEMENT_TYPE_U32,  PHAL_ELEMENT_TYPE_U64,
    PHAL_ELEMENT_TYPE_F16,  PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F32,
    PHAL_ELEMENT_TYPE_F64,  PHAL_ELEMENT_TYPE_C64,  PHAL_ELEMENT_TYPE_C128};

bool SameNaNAware(phal_element_type_t type, const uint8_t* got,
                  const std::vector<uint8_t>& expected) {
  if (std::memcmp(got, expected.data(), expected.size()) == 0) return true;
  // Any NaN matches any NaN.
  if (IsFloat(type)) {
    return std::isnan(LoadFloat(type, got)) &&
           std::isnan(LoadFloat(type, expected.data()));
  }
  return false;
}

using ConvertTest = OpsTest;

TEST_F(ConvertTest, EveryTypeConvertsToEveryTypeAsStableHloSays) {
  for (phal_element_type_t from : kAllTypes) {
    const std::vector<SourceValue> values = SourceValues(from);
    const int64_t count = static_cast<int64_t>(values.size());
    std::vector<uint8_t> input(values.size() * StorageBytes(from));
    for (size_t i = 0; i < values.size(); ++i) {
      StoreSource(from, values[i], input.data() + i * StorageBytes(from));
    }
    OpBatch batch(from, count);
    for (phal_element_type_t to : kAllTypes) {
      batch.Unary(PHAL_KIR_OP_CONVERT, to, "convert");
    }
    batch.Run(*this, input, input);
    for (size_t o = 0; o < batch.output_count(); ++o) {
      const phal_element_type_t to = batch.output_type(o);
      for (int64_t i = 0; i < count; ++i) {
        const SourceValue stored =
            LoadSource(from, input.data() + i * StorageBytes(from));
        const std::vector<uint8_t> expected = ExpectedConvert(from, stored, to);
        ASSERT_TRUE(SameNaNAware(to, batch.element(o, i), expected))
            << "convert type " << from << " -> type " << to << " of "
            << static_cast<double>(stored.real);
      }
    }
  }
}

// The 16-bit float conversions the kernels compute inline: every f16 bit
// pattern widened to f32, and f32 bit patterns across the whole range
// (every 65521st, and the f16 and bf16 rounding boundaries: halfway
// points, the largest finite values, the subnormal edges) narrowed to f16
// and bf16, bit for bit as sdk/base/float16 computes them.
TEST_F(ConvertTest, SixteenBitFloatsConvertBitForBit) {
  {
    std::vector<uint8_t> input(size_t{1} << 17);
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      const auto half = static_cast<uint16_t>(bits);
      std::memcpy(input.data() + 2 * bits, &half, 2);
    }
    OpBatch batch(PHAL_ELEMENT_TYPE_F16, int64_t{1} << 16);
    const size_t output =
        batch.Unary(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_F32, "widen");
    batch.Run(*this, input, input);
    for (uint32_t bits = 0; bits < (1u << 16); ++bits) {
      const float expected = HalfToFloat(static_cast<uint16_t>(bits));
      ASSERT_EQ(std::memcmp(batch.element(output, bits), &expected, 4), 0)
          << "f16 0x" << std::hex << bits;
    }
  }
  std::vector<uint32_t> patterns;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFFu; bits += 65521) {
    patterns.push_back(static_cast<uint32_t>(bits));
  }
  for (const float edge :
       {65504.0f, 65520.0f, 6.103515625e-05f, 5.9604644775390625e-08f,
        2.98023223876953125e-08f, 3.3895313892515355e38f, 1.0009765625f}) {
    const uint32_t bits = std::bit_cast<uint32_t>(edge);
    for (uint32_t delta = 0; delta < 3; ++delta) {
      for (const uint32_t sign : {0u, 0x80000000u}) {
        patterns.push_back((bits + delta) | sign);
        patterns.push_back((bits - delta) | sign);
      }
    }
  }
  for (const uint32_t special :
       {0x7F800000u, 0x7FC00001u, 0xFF812345u, 0x00000001u, 0x33000000u,
        0x33000001u, 0x387FE000u, 0x387FF000u, 0x7F7FFFFFu}) {
    patterns.push_back(special);
  }
  std::vector<uint8_t> input(patterns.size() * 4);
  std::memcpy(input.data(), patterns.data(), input.size());
  OpBatch batch(PHAL_ELEMENT_TYPE_F32, static_cast<int64_t>(patterns.size()));
  const size_t to_half =
      batch.Unary(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_F16, "narrow_f16");
  const size_t to_bfloat =
      batch.Unary(PHAL_KIR_OP_CONVERT, PHAL_ELEMENT_TYPE_BF16, "narrow_bf16");
  batch.Run(*this, input, input);
  for (size_t i = 0; i < patterns.size(); ++i) {
    const float value = std::bit_cast<float>(patterns[i]);
    const uint16_t half = FloatToHalf(value);
    const uint16_t bfloat = FloatToBFloat16(value);
    ASSERT_EQ(
        std::memcmp(batch.element(to_half, static_cast<int64_t>(i)), &half, 2),
        0)
        << "f32 0x" << std::hex << patterns[i] << " to f16";
    ASSERT_EQ(std::memcmp(batch.element(to_bfloat, static_cast<int64_t>(i)),
                          &bfloat, 2),
              0)
        << "f32 0x" << std::hex << patterns[i] << " to bf16";
  }
}

TEST_F(ConvertTest, BitcastConvertKeepsTheBits) {
  const std::pair<phal_element_type_t, phal_element_type_t> pairs[] = {
      {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_S32},
      {PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_F32},
      {PHAL_ELEMENT_TYPE_F64, PHAL_ELEMENT_TYPE_U64},
      {PHAL_ELEMENT_TYPE_S64, PHAL_ELEMENT_TYPE_F64},
      {PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_S16},
      {PHAL_ELEMENT_TYPE_U16, PHAL_ELEMENT_TYPE_BF16},
      {PHAL_ELEMENT_TYPE_BF16, PHAL_ELEMENT_TYPE_F16},
      {PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_S64},
      {PHAL_ELEMENT_TYPE_U64, PHAL_ELEMENT_TYPE_C64},
      {PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_U8},
  };
  for (const auto& [from, to] : pairs) {
    // Bit patterns that are no signalling NaN in any float type of their
    // width (a float load may quiet those).
    std::vector<uint64_t> patterns;
    switch (StorageBytes(from)) {
      case 1:
        patterns = {0, 1, 0x7F, 0x80, 0xFF};
        break;
      case 2:
        patterns = {0,      0x3C00, 0xBC00, 0x7C00, 0x0001,
                    0x7E00, 0x7FC0, 0x8000, 0x1234};
        break;
      case 4:
        patterns = {0,          0x3F800000, 0xBF800000, 0x7F800000,
                    0x7FC00000, 1,          0x80000000, 0x12345678};
        break;
      default:
        patterns = {0, 0x3FF0000000000000, 0x7FF8000000000000,
                    1, 0x8000000000000000, 0x123456789ABCDEF0};
    }
    std::vector<uint8_t> input(patterns.size() * StorageBytes(from));
    for (size_t i = 0; i < patterns.size(); ++i) {
      std::memcpy(input.data() + i * StorageBytes(from), &patterns[i],
                  static_cast<size_t>(StorageBytes(from)));
    }
    OpBatch batch(from, static_cast<int64_t>(patterns.size()));
    const size_t output =
        batch.Unary(PHAL_KIR_OP_BITCAST_CONVERT, to, "bitcast");
    batch.Run(*this, input, input);
    EXPECT_EQ(std::memcmp(batch.element(output, 0), input.data(), input.size()),
              0)
        << "bitcast type " << from << " -> type " << to;
  }
}

// reduce_precision to (5, 10) on f32 rounds to the f16 grid and flushes
// below its normal range; (8, 7) is bf16 rounding; a type's own format is
// the identity.
TEST_F(ConvertTest, ReducePrecisionRoundsToTheNarrowerFormat) {
  const std::vector<double> values = {
      0.0,        -0.0,      1.0,   1.0009765625, 1.00048828125,
      3.14159265, -2.71828,  65504, 65520,        1e5,
      -1e6,       1e-3,      3e-5,  1e-6,         -1e-7,
      INFINITY,   -INFINITY, NAN,   123.456,      0.1};
  OpBatch batch(PHAL_ELEMENT_TYPE_F32, static_cast<int64_t>(values.size()));
  KirBody& b = batch.body();
  const size_t to_f16_grid =
      batch.Output(b.Add(PHAL_KIR_OP_REDUCE_PRECISION, PHAL_ELEMENT_TYPE_F32,
                         {batch.x()}, {5, 10}),
                   PHAL_ELEMENT_TYPE_F32, "(5, 10)");
  const size_t to_bf16_grid =
      batch.Output(b.Add(PHAL_KIR_OP_REDUCE_PRECISION, PHAL_ELEMENT_TYPE_F32,
                         {batch.x()}, {8, 7}),
                   PHAL_ELEMENT_TYPE_F32, "(8, 7)");
  const size_t identity =
      batch.Output(b.Add(PHAL_KIR_OP_REDUCE_PRECISION, PHAL_ELEMENT_TYPE_F32,
                         {batch.x()}, {8, 23}),
                   PHAL_ELEMENT_TYPE_F32, "(8, 23)");
  const std::vector<uint8_t> input = FloatBytes(PHAL_ELEMENT_TYPE_F32, values);
  batch.Run(*this, input, input);
  for (size_t i = 0; i < values.size(); ++i) {
    const double x = RoundToFloat(PHAL_ELEMENT_TYPE_F32, values[i]);
    double f16 = RoundToFloat(PHAL_ELEMENT_TYPE_F16, x);
    if (std::fabs(f16) < std::ldexp(1.0, -14)) f16 = std::copysign(0.0, x);
    const double bf16 = RoundToFloat(PHAL_ELEMENT_TYPE_BF16, x);
    const double got_f16 =
        LoadFloat(PHAL_ELEMENT_TYPE_F32, batch.element(to_f16_grid, i));
    const double got_bf16 =
        LoadFloat(PHAL_ELEMENT_TYPE_F32, batch.element(to_bf16_grid, i));
    const double got_same =
        LoadFloat(PHAL_ELEMENT_TYPE_F32, batch.element(identity, i));
    EXPECT_EQ(UlpDistance(PHAL_ELEMENT_TYPE_F32, got_f16, f16), 0u) << x;
    EXPECT_EQ(std::signbit(got_f16), std::signbit(f16)) << x;
    EXPECT_EQ(UlpDistance(PHAL_ELEMENT_TYPE_F32, got_bf16, bf16), 0u) << x;
    EXPECT_EQ(UlpDistance(PHAL_ELEMENT_TYPE_F32, got_same, x), 0u) << x;
  }
}

}  // namespace
}  // namespace phal::cpu
