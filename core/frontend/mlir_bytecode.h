// The MLIR bytecode container (mlir.llvm.org/docs/BytecodeFormat): the
// sections of a bytecode file, its string, dialect, attribute/type and
// properties tables, and the operations of its IR section as a tree whose
// attributes and types are still indices into those tables. What an
// attribute or type entry holds is its dialect's business
// (portable_artifact.cc reads the builtin and VHLO ones). Bytecode versions 0
// to 6 are read. Every error names the byte offset in the file and what was
// expected there; malformed input never crashes or reads out of bounds.
#ifndef POLYHAL_CORE_FRONTEND_MLIR_BYTECODE_H_
#define POLYHAL_CORE_FRONTEND_MLIR_BYTECODE_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sdk/base/status.h"

namespace phal {

// True when `bytes` starts with MLIR bytecode's magic number "ML\xEFR".
bool IsMlirBytecode(std::string_view bytes);

// The newest bytecode version the reader knows.
inline constexpr uint64_t kMlirBytecodeMaxVersion = 6;

// A cursor over a byte range of a bytecode file. Offsets reported in errors
// are offsets in the whole file.
class BytecodeCursor {
 public:
  BytecodeCursor(std::string_view file, std::size_t begin, std::size_t end,
                 std::string_view file_name)
      : file_(file), position_(begin), end_(end), file_name_(file_name) {}

  bool empty() const { return position_ >= end_; }
  std::size_t position() const { return position_; }
  std::size_t end() const { return end_; }
  std::string_view file() const { return file_; }
  std::string_view file_name() const { return file_name_; }

  Status ReadByte(uint8_t* out, std::string_view what);
  // MLIR's prefix varint: the count of trailing zero bits of the first byte
  // is the count of bytes that follow.
  Status ReadVarInt(uint64_t* out, std::string_view what);
  // A zigzag-encoded signed varint.
  Status ReadSignedVarInt(int64_t* out, std::string_view what);
  // A varint whose low bit is a flag: (value << 1) | flag.
  Status ReadVarIntWithFlag(uint64_t* out, bool* flag, std::string_view what);
  // `size` bytes; returns their offset in the file.
  Status ReadBytes(uint64_t size, std::size_t* out_begin,
                   std::string_view what);
  Status ReadNullTerminated(std::string* out, std::string_view what);
  // A varint count, bounded by the bytes left (each element needs at least
  // `min_element_bytes`), so a corrupt count cannot ask for huge storage.
  Status ReadCount(uint64_t* out, std::size_t min_element_bytes,
                   std::string_view what);
  // INVALID_ARGUMENT "file: byte N: message".
  Status ErrorAt(std::size_t offset, const std::string& message) const;
  Status Error(const std::string& message) const {
    return ErrorAt(position_, message);
  }

 private:
  std::string_view file_;
  std::size_t position_;
  std::size_t end_;
  std::string_view file_name_;
};

// An attribute or type table entry: its dialect and the byte range of its
// encoding. A custom encoding is the dialect's own; otherwise the range holds
// the entry's MLIR text, NUL-terminated.
struct BytecodeTableEntry {
  uint64_t dialect = 0;
  bool custom_encoding = false;
  std::size_t begin = 0;
  std::size_t end = 0;
};

struct BytecodeOperationName {
  uint64_t dialect = 0;
  std::string name;  // without the dialect prefix
  // Whether the writer had the op registered (bytecode 5 and later): a
  // registered op's properties are its own encoding, an unregistered one's
  // an attribute.
  bool registered = true;
};

struct BytecodeOperation;

struct BytecodeBlock {
  std::vector<uint64_t> argument_types;
  // Value numbers of the arguments, unique in the file.
  std::vector<int64_t> arguments;
  std::vector<BytecodeOperation> operations;
};

struct BytecodeRegion {
  std::vector<BytecodeBlock> blocks;
};

struct BytecodeOperation {
  uint64_t name = 0;       // index into MlirBytecode::operation_names
  std::size_t offset = 0;  // of the operation's encoding in the file
  uint64_t location = 0;   // attribute index
  bool has_attributes = false;
  uint64_t attributes = 0;  // attribute index of the discardable dictionary
  // Properties: for a registered op, an index into the properties table;
  // for an unregistered one, an attribute index.
  bool has_properties = false;
  uint64_t properties = 0;
  std::vector<uint64_t> result_types;  // type indices
  std::vector<int64_t> results;        // value numbers
  std::vector<int64_t> operands;       // value numbers
  std::vector<uint64_t> successors;    // block indices
  std::vector<BytecodeRegion> regions;
};

struct MlirBytecode {
  std::string_view file;  // the bytes read; must outlive this object
  std::string file_name;
  uint64_t version = 0;
  std::string producer;
  std::vector<std::string> strings;
  std::vector<std::string> dialects;
  std::vector<BytecodeOperationName> operation_names;
  std::vector<BytecodeTableEntry> attributes;
  std::vector<BytecodeTableEntry> types;
  // Byte ranges of each operation's properties (bytecode 5 and later).
  std::vector<std::pair<std::size_t, std::size_t>> properties;
  // The top-level operations (a builtin.module).
  BytecodeBlock top;
  int64_t value_count = 0;

  // "dialect.name" of an operation.
  std::string OperationName(const BytecodeOperation& op) const;
  // A cursor over an attribute, type or properties entry.
  BytecodeCursor CursorOver(std::size_t begin, std::size_t end) const {
    return BytecodeCursor(file, begin, end, file_name);
  }
};

// Reads the container of `bytes`. `file_name` labels errors.
StatusOr<MlirBytecode> ReadMlirBytecode(std::string_view bytes,
                                        std::string_view file_name);

}  // namespace phal

#endif  // POLYHAL_CORE_FRONTEND_MLIR_BYTECODE_H_
