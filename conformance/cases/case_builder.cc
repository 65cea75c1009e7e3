#include "conformance/cases/case_builder.h"

#include "sdk/base/hash.h"

namespace phal::conformance {

const std::vector<ShapeClass>& ElementwiseShapeClasses() {
  static const std::vector<ShapeClass> classes = {
      {"scalar", {}},       {"1d", {64}},      {"odd", {7, 13}},
      {"npot", {3, 5, 12}}, {"empty", {0, 5}}, {"large", {300, 384}}};
  return classes;
}

const std::vector<ShapeClass>& SecondaryShapeClasses() {
  static const std::vector<ShapeClass> classes = {
      {"scalar", {}}, {"odd", {7, 13}}, {"large", {300, 384}}};
  return classes;
}

std::vector<ElementType> FloatTypes() {
  return {PHAL_ELEMENT_TYPE_F32, PHAL_ELEMENT_TYPE_F16, PHAL_ELEMENT_TYPE_BF16,
          PHAL_ELEMENT_TYPE_F64};
}

std::vector<ElementType> SignedTypes() {
  return {PHAL_ELEMENT_TYPE_S32, PHAL_ELEMENT_TYPE_S8, PHAL_ELEMENT_TYPE_S16,
          PHAL_ELEMENT_TYPE_S64};
}

std::vector<ElementType> UnsignedTypes() {
  return {PHAL_ELEMENT_TYPE_U32, PHAL_ELEMENT_TYPE_U8, PHAL_ELEMENT_TYPE_U16,
          PHAL_ELEMENT_TYPE_U64};
}

std::vector<ElementType> IntegerTypes() {
  return Join({SignedTypes(), UnsignedTypes()});
}

std::vector<ElementType> ComplexTypes() {
  return {PHAL_ELEMENT_TYPE_C64, PHAL_ELEMENT_TYPE_C128};
}

std::vector<ElementType> AllTypes() {
  return Join(
      {{PHAL_ELEMENT_TYPE_PRED}, IntegerTypes(), FloatTypes(), ComplexTypes()});
}

std::vector<ElementType> Join(std::vector<std::vector<ElementType>> lists) {
  std::vector<ElementType> joined;
  for (const auto& list : lists) {
    joined.insert(joined.end(), list.begin(), list.end());
  }
  return joined;
}

bool IsPrimaryType(ElementType type) {
  return type == PHAL_ELEMENT_TYPE_F32 || type == PHAL_ELEMENT_TYPE_S32 ||
         type == PHAL_ELEMENT_TYPE_U32 || type == PHAL_ELEMENT_TYPE_C64 ||
         type == PHAL_ELEMENT_TYPE_PRED;
}

Case NumericCase(const std::string& op, const std::string& variant,
                 ElementType dtype, int tier, const std::string& shape_class,
                 const std::string& value_class, std::string module_text,
                 std::vector<InputSpec> inputs, ToleranceSpec tolerance) {
  Case c;
  c.op = op;
  c.dtype = ElementTypeName(dtype);
  c.tier = tier;
  c.shape_class = shape_class;
  c.value_class = value_class;
  c.id = op + (variant.empty() ? "" : "." + variant) + "." + c.dtype + "." +
         shape_class + "." + value_class;
  c.kind = CaseKind::kNumeric;
  c.module_text = std::move(module_text);
  c.inputs = std::move(inputs);
  c.seed = Fnv1a(c.id);  // depends on the case id only
  c.tolerance = tolerance;
  return c;
}

}  // namespace phal::conformance
