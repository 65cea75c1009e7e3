// The syntax tree the MLIR text parser produces: modules of functions, whose
// bodies are operations with operands, results, attributes and regions. Both
// of MLIR's spellings of an operation (the generic "stablehlo.add"(%a, %b)
// and the dialect's pretty form stablehlo.add %a, %b) parse into the same
// MlirOperation, so lowering to HLO handles each op once.
#ifndef POLYHAL_CORE_FRONTEND_MLIR_SYNTAX_H_
#define POLYHAL_CORE_FRONTEND_MLIR_SYNTAX_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/frontend/emulated_types.h"
#include "core/hlo/shape.h"

namespace phal {

// The elements of a dense<...> attribute before its type is known: a nested
// list, a scalar number, a boolean, a complex pair or a hex string of raw
// bytes.
struct DenseElements {
  enum class Kind { kList, kInteger, kFloat, kBool, kComplex, kHexBytes };
  Kind kind = Kind::kList;
  // kInteger: the magnitude's bits (also the bits of 0x... float patterns).
  uint64_t integer_bits = 0;
  bool negative = false;                // kInteger: written with a leading '-'
  bool is_hex = false;                  // kInteger: written as 0x...
  double number = 0.0;                  // kFloat
  bool boolean = false;                 // kBool
  std::string bytes;                    // kHexBytes: the decoded bytes
  std::vector<DenseElements> elements;  // kList, and kComplex's two parts
  std::size_t offset = 0;
};

// The integer written as `magnitude` with an optional leading '-', wrapped
// to 64 bits (so -9223372036854775808 and 18446744073709551615 both fit).
inline int64_t SignedFromMagnitude(uint64_t magnitude, bool negative) {
  return static_cast<int64_t>(negative ? 0 - magnitude : magnitude);
}

struct MlirNamedAttribute;

struct MlirAttribute {
  enum class Kind {
    kUnit,           // a name without a value: {has_side_effect}
    kBool,           // true / false
    kInteger,        // 3, -1 (optionally ": i64")
    kFloat,          // 0.5 (optionally ": f64")
    kString,         // "text"
    kKeyword,        // a bare word: DEFAULT, LT, e5m10
    kSymbol,         // @name
    kArray,          // [a, b, ...]; also the "[0] x [1]" pairs of dot_general
    kDenseArray,     // array<i64: 1, 2>
    kDictionary,     // {name = value, ...}
    kDenseElements,  // dense<...> with an optional ": type"
    kType,           // a type used as an attribute
    kDialect,  // #stablehlo.gather<...>, #stablehlo<comparison_direction LT>
    kConvDimensions,  // [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]
    // Shardy's own syntax (#sdy.sharding<...>, a manual computation's
    // in_shardings=[...] and manual_axes={...}), kept as the source range
    // [raw_begin, raw_end) for sdy_sharding.h to read.
    kSdy,
  };
  Kind kind = Kind::kUnit;
  bool boolean = false;
  int64_t integer = 0;
  double number = 0.0;
  // kString (unquoted), kKeyword, kSymbol (without '@'), kDialect (the name
  // after '#', e.g. "stablehlo.gather" or "stablehlo").
  std::string text;
  // kArray; kDialect: the bare words of "#stablehlo<comparison_direction LT>";
  // kConvDimensions: three arrays of keywords and integers.
  std::vector<MlirAttribute> elements;
  // kDictionary; kDialect: its "name = value" parameters.
  std::vector<MlirNamedAttribute> fields;
  std::vector<int64_t> integers;  // kDenseArray
  DenseElements dense;            // kDenseElements
  bool has_type = false;          // kDenseElements, kInteger, kFloat
  Shape type;                     // the ": type" when has_type; kType
  EmulatedType emulated;          // of `type`, as MlirBlockArgument's
  std::size_t offset = 0;
  std::size_t raw_begin = 0;  // kSdy
  std::size_t raw_end = 0;    // kSdy

  // The field called `name` of a dictionary or dialect attribute, or null.
  const MlirAttribute* Field(const std::string& name) const;
};

// A "name = value" entry of an attribute dictionary: an operation's
// attributes and the fields of a dictionary or dialect attribute. A named
// type rather than std::pair, so MlirAttribute can hold a vector of them
// while it is still incomplete.
struct MlirNamedAttribute {
  std::string name;
  MlirAttribute value;
};

// A use of an SSA value: "%x" (index 0) or "%x#2".
struct MlirValueUse {
  std::string name;  // without '%'
  int64_t index = 0;
  std::size_t offset = 0;
};

// Results "%x" (count 1) or "%x:3" on the left of an operation.
struct MlirResultGroup {
  std::string name;
  int64_t count = 1;
};

struct MlirBlockArgument {
  std::string name;
  Shape type;
  // For a type the HLO IR lacks (i4, f8E4M3FN, ...), what `type` stores.
  EmulatedType emulated;
  std::size_t offset = 0;
  // A function argument's attribute dictionary ({mhlo.sharding = ...}).
  std::vector<MlirNamedAttribute> attributes;
};

struct MlirOperation;

// A region with its single block: arguments and operations.
struct MlirRegion {
  std::vector<MlirBlockArgument> arguments;
  std::vector<MlirOperation> operations;
  std::size_t offset = 0;
};

struct MlirOperation {
  std::string name;  // "stablehlo.add", "func.return", "check.expect_eq"
  std::size_t offset = 0;
  std::vector<MlirResultGroup> results;
  std::vector<MlirValueUse> operands;
  std::vector<MlirNamedAttribute> attributes;
  // Bare words of the pretty form in order (compare's "LT" and "SIGNED").
  std::vector<std::string> keywords;
  std::vector<MlirRegion> regions;
  // Types written in the op's signature. Operand types are empty when the
  // text gave only result types.
  std::vector<Shape> operand_types;
  std::vector<Shape> result_types;
  // Parallel to result_types: what each result type emulates, as
  // MlirBlockArgument's.
  std::vector<EmulatedType> result_emulated;

  int64_t ResultCount() const;
  const MlirAttribute* Attribute(const std::string& name) const;
};

struct MlirFunction {
  std::string name;
  bool is_public = true;
  std::vector<MlirBlockArgument> arguments;
  std::vector<Shape> result_types;
  // Parallel to result_types: each result's attribute dictionary.
  std::vector<std::vector<MlirNamedAttribute>> result_attributes;
  MlirRegion body;
  std::size_t offset = 0;
};

// sdy.mesh @name = <["x"=2, "y"=2]>: the mesh's text is the source range
// [begin, end), for sdy_sharding.h to read.
struct MlirMesh {
  std::string name;
  std::size_t begin = 0;
  std::size_t end = 0;
  std::size_t offset = 0;
};

struct MlirModule {
  std::string name;
  // `module attributes {...}`: mhlo.num_partitions, mhlo.num_replicas, ...
  std::vector<MlirNamedAttribute> attributes;
  std::vector<MlirFunction> functions;
  std::vector<MlirMesh> meshes;
  std::size_t offset = 0;
};

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_MLIR_SYNTAX_H_
