// What every family of numeric cases shares: the element type lists, the
// shape classes and how a case gets its id and seed.
#ifndef POLYHAL_CONFORMANCE_CASES_CASE_BUILDER_H_
#define POLYHAL_CONFORMANCE_CASES_CASE_BUILDER_H_

#include <string>
#include <vector>

#include "conformance/cases/case.h"
#include "core/hlo/shape.h"

namespace phal::conformance {

struct ShapeClass {
  std::string name;
  std::vector<int64_t> dims;
};

// scalar [], 1d [64], odd [7,13], npot [3,5,12], empty [0,5] and large
// [300,384] (115200 elements: more than any plugin's tile or vector).
const std::vector<ShapeClass>& ElementwiseShapeClasses();
// The classes each secondary element type runs: scalar, odd, large.
const std::vector<ShapeClass>& SecondaryShapeClasses();

std::vector<ElementType> FloatTypes();     // f32 f16 bf16 f64
std::vector<ElementType> SignedTypes();    // s32 s8 s16 s64
std::vector<ElementType> UnsignedTypes();  // u32 u8 u16 u64
std::vector<ElementType> IntegerTypes();   // signed, then unsigned
std::vector<ElementType> ComplexTypes();   // c64 c128
// Every element type: pred, integers, floats, complex.
std::vector<ElementType> AllTypes();
// Concatenation of type lists.
std::vector<ElementType> Join(std::vector<std::vector<ElementType>> lists);

// The type of its family every shape class runs in (f32, s32, u32, c64,
// pred); the others run SecondaryShapeClasses().
bool IsPrimaryType(ElementType type);

// A numeric case with id "<op>.<dtype>.<shape_class>.<value_class>" (plus
// `variant` after the op when it is not empty) and a seed hashed from it.
Case NumericCase(const std::string& op, const std::string& variant,
                 ElementType dtype, int tier, const std::string& shape_class,
                 const std::string& value_class, std::string module_text,
                 std::vector<InputSpec> inputs, ToleranceSpec tolerance);

}  // namespace phal::conformance

#endif  // POLYHAL_CONFORMANCE_CASES_CASE_BUILDER_H_
