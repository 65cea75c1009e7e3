#include "conformance/cases/input_spec.h"

#include <random>

#include "conformance/cases/edge_values.h"

namespace phal::conformance {
namespace {

int64_t RandomInteger(ElementType type, std::mt19937_64& generator) {
  std::uniform_int_distribution<int> coin(0, 1);
  if (type == PHAL_ELEMENT_TYPE_PRED) return coin(generator);
  if (coin(generator) == 0) {
    std::uniform_int_distribution<int64_t> small(IsSigned(type) ? -20 : 0, 20);
    return small(generator);
  }
  // Every bit pattern; storing keeps the low bits of the type's width.
  return static_cast<int64_t>(generator());
}

void FillRandom(Literal* literal, const InputSpec& spec,
                std::mt19937_64& generator) {
  const ElementType type = literal->element_type();
  std::uniform_real_distribution<double> real(spec.low, spec.high);
  for (int64_t i = 0; i < literal->ElementCount(); ++i) {
    if (IsComplex(type)) {
      const double re = real(generator);
      literal->SetFromComplex(i, {re, real(generator)});
    } else if (IsFloat(type)) {
      literal->SetFromDouble(i, real(generator));
    } else {
      literal->SetFromInt64(i, RandomInteger(type, generator));
    }
  }
}

void FillEdges(Literal* literal, const InputSpec& spec) {
  const ElementType type = literal->element_type();
  const int64_t count = EdgeValueCount(type);
  int64_t stride = 1;
  for (int k = 0; k < spec.edge_phase; ++k) stride *= count;
  for (int64_t i = 0; i < literal->ElementCount(); ++i) {
    const auto pick = static_cast<std::size_t>((i / stride) % count);
    if (IsComplex(type)) {
      literal->SetFromComplex(i, ComplexEdgeValues(type)[pick]);
    } else if (IsFloat(type)) {
      literal->SetFromDouble(i, FloatEdgeValues(type)[pick]);
    } else {
      literal->SetFromInt64(i, IntegerEdgeValues(type)[pick]);
    }
  }
}

void FillIndices(Literal* literal, const InputSpec& spec,
                 std::mt19937_64& generator) {
  std::uniform_int_distribution<int64_t> index(static_cast<int64_t>(spec.low),
                                               static_cast<int64_t>(spec.high));
  for (int64_t i = 0; i < literal->ElementCount(); ++i) {
    literal->SetFromInt64(i, index(generator));
  }
}

}  // namespace

Literal MakeInput(const Shape& shape, const InputSpec& spec, uint64_t seed) {
  std::mt19937_64 generator(seed);
  Literal literal(shape);
  switch (spec.values) {
    case ValueClass::kRandom:
      FillRandom(&literal, spec, generator);
      break;
    case ValueClass::kEdge:
      FillEdges(&literal, spec);
      break;
    case ValueClass::kIndex:
      FillIndices(&literal, spec, generator);
      break;
  }
  return literal;
}

}  // namespace phal::conformance
