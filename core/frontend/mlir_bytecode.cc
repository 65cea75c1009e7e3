#include "core/frontend/mlir_bytecode.h"

#include <cstring>
#include <utility>

namespace phal {
namespace {

// Section identifiers.
constexpr uint8_t kStringSection = 0;
constexpr uint8_t kDialectSection = 1;
constexpr uint8_t kAttrTypeSection = 2;
constexpr uint8_t kAttrTypeOffsetSection = 3;
constexpr uint8_t kIrSection = 4;
constexpr uint8_t kDialectVersionsSection = 7;
constexpr uint8_t kPropertiesSection = 8;
constexpr uint8_t kSectionCount = 9;

// Bytecode versions that changed the encoding.
constexpr uint64_t kDialectVersioning = 1;
constexpr uint64_t kLazyLoading = 2;
constexpr uint64_t kUseListOrdering = 3;
constexpr uint64_t kElideUnknownBlockArgLocation = 4;
constexpr uint64_t kNativePropertiesEncoding = 5;

// Operation encoding mask bits.
constexpr uint8_t kHasAttrs = 0x01;
constexpr uint8_t kHasResults = 0x02;
constexpr uint8_t kHasOperands = 0x04;
constexpr uint8_t kHasSuccessors = 0x08;
constexpr uint8_t kHasInlineRegions = 0x10;
constexpr uint8_t kHasUseListOrders = 0x20;
constexpr uint8_t kHasProperties = 0x40;

constexpr uint8_t kAlignmentByte = 0xCB;
constexpr int kMaxRegionDepth = 256;

struct Section {
  bool present = false;
  std::size_t begin = 0;
  std::size_t end = 0;
};

// Reads a section header and returns its identifier and data range.
Status ReadSection(BytecodeCursor& cursor, uint8_t* id, Section* section) {
  uint8_t id_and_alignment = 0;
  uint64_t length = 0;
  PHAL_RETURN_IF_ERROR(cursor.ReadByte(&id_and_alignment, "a section id"));
  PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&length, "a section length"));
  *id = id_and_alignment & 0x7f;
  if (*id >= kSectionCount) {
    return cursor.ErrorAt(cursor.position() - 1,
                          "unknown section id " + std::to_string(*id) +
                              " (expected 0 to " +
                              std::to_string(kSectionCount - 1) + ")");
  }
  if ((id_and_alignment & 0x80) != 0) {
    uint64_t alignment = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&alignment, "a section alignment"));
    if (alignment == 0 || (alignment & (alignment - 1)) != 0 ||
        alignment > 4096) {
      return cursor.Error("section alignment " + std::to_string(alignment) +
                          " is not a power of two up to 4096");
    }
    while (cursor.position() % alignment != 0) {
      uint8_t padding = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadByte(&padding, "alignment padding"));
      if (padding != kAlignmentByte) {
        return cursor.ErrorAt(cursor.position() - 1,
                              "expected the alignment byte 0xCB");
      }
    }
  }
  if (length > cursor.end() - cursor.position()) {
    return cursor.Error("section " + std::to_string(*id) + " of " +
                        std::to_string(length) + " bytes runs past the end");
  }
  section->present = true;
  PHAL_RETURN_IF_ERROR(
      cursor.ReadBytes(length, &section->begin, "the section's data"));
  section->end = section->begin + length;
  return OkStatus();
}

// The value numbers visible in one isolated-from-above scope: each region
// being read reserves slots for the values it defines.
struct ValueScope {
  std::vector<int64_t> values;
  std::vector<std::size_t> next;
};

class IrReader {
 public:
  explicit IrReader(MlirBytecode& bytecode) : bc_(bytecode) {}

  Status ReadTop(BytecodeCursor& cursor) {
    scopes_.emplace_back();
    scopes_.back().next.push_back(0);
    uint64_t op_count = 0;
    bool has_arguments = false;
    PHAL_RETURN_IF_ERROR(
        ReadBlockHeader(cursor, &bc_.top, &op_count, &has_arguments));
    PHAL_RETURN_IF_ERROR(ReadOperations(cursor, &bc_.top, op_count, 0));
    if (!cursor.empty()) {
      return cursor.Error("unexpected bytes after the top-level operations");
    }
    return OkStatus();
  }

 private:
  ValueScope& scope() { return scopes_.back(); }

  Status Define(BytecodeCursor& cursor, std::vector<int64_t>* out) {
    ValueScope& s = scope();
    std::size_t& next = s.next.back();
    if (next >= s.values.size()) {
      return cursor.Error("more values are defined than the region declared (" +
                          std::to_string(s.values.size()) + ")");
    }
    out->push_back(s.values[next++]);
    return OkStatus();
  }

  Status ReadUseListOrders(BytecodeCursor& cursor, uint64_t range_size) {
    uint64_t entries = 1;
    if (range_size > 1) {
      PHAL_RETURN_IF_ERROR(cursor.ReadCount(&entries, 1, "use-list entries"));
    }
    for (uint64_t i = 0; i < entries; ++i) {
      uint64_t index = 0;
      if (range_size > 1) {
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&index, "a use-list value"));
      }
      uint64_t count = 0;
      bool pairs = false;
      PHAL_RETURN_IF_ERROR(
          cursor.ReadVarIntWithFlag(&count, &pairs, "a use-list length"));
      if (count > cursor.end() - cursor.position()) {
        return cursor.Error("use-list of " + std::to_string(count) +
                            " entries runs past the end");
      }
      for (uint64_t k = 0; k < count; ++k) {
        uint64_t ignored = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&ignored, "a use-list index"));
      }
    }
    return OkStatus();
  }

  Status ReadBlockHeader(BytecodeCursor& cursor, BytecodeBlock* block,
                         uint64_t* op_count, bool* has_arguments) {
    PHAL_RETURN_IF_ERROR(cursor.ReadVarIntWithFlag(
        op_count, has_arguments, "a block's operation count"));
    if (*op_count > cursor.end() - cursor.position()) {
      return cursor.Error("block of " + std::to_string(*op_count) +
                          " operations runs past the end");
    }
    if (!*has_arguments) return OkStatus();
    uint64_t count = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a block argument count"));
    for (uint64_t i = 0; i < count; ++i) {
      uint64_t type = 0;
      bool has_location = true;
      if (bc_.version >= kElideUnknownBlockArgLocation) {
        PHAL_RETURN_IF_ERROR(cursor.ReadVarIntWithFlag(
            &type, &has_location, "a block argument's type"));
      } else {
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarInt(&type, "a block argument's type"));
      }
      if (type >= bc_.types.size()) {
        return cursor.Error("block argument type index " +
                            std::to_string(type) + " is out of range (" +
                            std::to_string(bc_.types.size()) + " types)");
      }
      if (has_location) {
        uint64_t location = 0;
        PHAL_RETURN_IF_ERROR(
            cursor.ReadVarInt(&location, "a block argument's location"));
      }
      block->argument_types.push_back(type);
      PHAL_RETURN_IF_ERROR(Define(cursor, &block->arguments));
    }
    if (bc_.version < kUseListOrdering) return OkStatus();
    uint8_t has_orders = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadByte(&has_orders, "a use-list flag"));
    if (has_orders != 0) return ReadUseListOrders(cursor, count);
    return OkStatus();
  }

  Status ReadOperations(BytecodeCursor& cursor, BytecodeBlock* block,
                        uint64_t count, int depth) {
    for (uint64_t i = 0; i < count; ++i) {
      block->operations.emplace_back();
      PHAL_RETURN_IF_ERROR(
          ReadOperation(cursor, &block->operations.back(), depth));
    }
    return OkStatus();
  }

  Status ReadIndex(BytecodeCursor& cursor, std::size_t limit,
                   std::string_view what, uint64_t* out) {
    const std::size_t at = cursor.position();
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(out, what));
    if (*out >= limit) {
      return cursor.ErrorAt(
          at, std::string(what) + " index " + std::to_string(*out) +
                  " is out of range (" + std::to_string(limit) + " entries)");
    }
    return OkStatus();
  }

  Status ReadOperation(BytecodeCursor& cursor, BytecodeOperation* op,
                       int depth) {
    op->offset = cursor.position();
    PHAL_RETURN_IF_ERROR(ReadIndex(cursor, bc_.operation_names.size(),
                                   "operation name", &op->name));
    uint8_t mask = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadByte(&mask, "an operation encoding mask"));
    if ((mask & 0x80) != 0) {
      return cursor.ErrorAt(cursor.position() - 1,
                            "unknown bits in the operation encoding mask");
    }
    PHAL_RETURN_IF_ERROR(ReadIndex(cursor, bc_.attributes.size(),
                                   "location attribute", &op->location));
    if ((mask & kHasAttrs) != 0) {
      op->has_attributes = true;
      PHAL_RETURN_IF_ERROR(ReadIndex(cursor, bc_.attributes.size(),
                                     "attribute dictionary", &op->attributes));
    }
    if ((mask & kHasProperties) != 0) {
      if (bc_.version < kNativePropertiesEncoding) {
        return cursor.Error("properties in bytecode version " +
                            std::to_string(bc_.version) +
                            ", which predates them");
      }
      op->has_properties = true;
      if (bc_.operation_names[op->name].registered) {
        PHAL_RETURN_IF_ERROR(ReadIndex(cursor, bc_.properties.size(),
                                       "properties", &op->properties));
      } else {
        PHAL_RETURN_IF_ERROR(ReadIndex(cursor, bc_.attributes.size(),
                                       "properties attribute",
                                       &op->properties));
      }
    }
    if ((mask & kHasResults) != 0) {
      uint64_t count = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a result count"));
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t type = 0;
        PHAL_RETURN_IF_ERROR(
            ReadIndex(cursor, bc_.types.size(), "result type", &type));
        op->result_types.push_back(type);
      }
    }
    if ((mask & kHasOperands) != 0) {
      uint64_t count = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "an operand count"));
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t slot = 0;
        PHAL_RETURN_IF_ERROR(
            ReadIndex(cursor, scope().values.size(), "operand value", &slot));
        op->operands.push_back(scope().values[slot]);
      }
    }
    if ((mask & kHasSuccessors) != 0) {
      uint64_t count = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "a successor count"));
      for (uint64_t i = 0; i < count; ++i) {
        uint64_t successor = 0;
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&successor, "a successor"));
        op->successors.push_back(successor);
      }
    }
    if (bc_.version >= kUseListOrdering && (mask & kHasUseListOrders) != 0) {
      PHAL_RETURN_IF_ERROR(ReadUseListOrders(cursor, op->result_types.size()));
    }
    uint64_t region_count = 0;
    bool isolated = false;
    if ((mask & kHasInlineRegions) != 0) {
      PHAL_RETURN_IF_ERROR(cursor.ReadVarIntWithFlag(&region_count, &isolated,
                                                     "a region count"));
      if (region_count > cursor.end() - cursor.position() + 1) {
        return cursor.Error(std::to_string(region_count) +
                            " regions run past the end");
      }
    }
    for (std::size_t i = 0; i < op->result_types.size(); ++i) {
      PHAL_RETURN_IF_ERROR(Define(cursor, &op->results));
    }
    if (region_count == 0) return OkStatus();
    if (depth >= kMaxRegionDepth) {
      return cursor.Error("regions nested deeper than " +
                          std::to_string(kMaxRegionDepth));
    }
    op->regions.resize(region_count);
    if (!isolated) return ReadRegions(cursor, op, depth);
    scopes_.emplace_back();
    Status status = OkStatus();
    if (bc_.version >= kLazyLoading) {
      uint8_t id = 0;
      Section section;
      PHAL_RETURN_IF_ERROR(ReadSection(cursor, &id, &section));
      if (id != kIrSection) {
        return cursor.ErrorAt(section.begin,
                              "expected an IR section holding the regions of "
                              "an isolated operation, found section " +
                                  std::to_string(id));
      }
      BytecodeCursor inner = bc_.CursorOver(section.begin, section.end);
      status = ReadRegions(inner, op, depth);
      if (status.ok() && !inner.empty()) {
        status = inner.Error("unexpected bytes after an operation's regions");
      }
    } else {
      status = ReadRegions(cursor, op, depth);
    }
    scopes_.pop_back();
    return status;
  }

  Status ReadRegions(BytecodeCursor& cursor, BytecodeOperation* op, int depth) {
    for (BytecodeRegion& region : op->regions) {
      PHAL_RETURN_IF_ERROR(ReadRegion(cursor, &region, depth + 1));
    }
    return OkStatus();
  }

  Status ReadRegion(BytecodeCursor& cursor, BytecodeRegion* region, int depth) {
    uint64_t block_count = 0;
    PHAL_RETURN_IF_ERROR(
        cursor.ReadCount(&block_count, 1, "a region's block count"));
    if (block_count == 0) return OkStatus();
    uint64_t value_count = 0;
    PHAL_RETURN_IF_ERROR(
        cursor.ReadCount(&value_count, 1, "a region's value count"));
    ValueScope& s = scope();
    s.next.push_back(s.values.size());
    for (uint64_t i = 0; i < value_count; ++i) {
      s.values.push_back(bc_.value_count++);
    }
    region->blocks.resize(block_count);
    for (BytecodeBlock& block : region->blocks) {
      uint64_t op_count = 0;
      bool has_arguments = false;
      PHAL_RETURN_IF_ERROR(
          ReadBlockHeader(cursor, &block, &op_count, &has_arguments));
      PHAL_RETURN_IF_ERROR(ReadOperations(cursor, &block, op_count, depth));
    }
    ValueScope& after = scope();
    after.values.resize(after.values.size() - value_count);
    after.next.pop_back();
    return OkStatus();
  }

  MlirBytecode& bc_;
  std::vector<ValueScope> scopes_;
};

Status ReadStrings(MlirBytecode& bc, const Section& section) {
  BytecodeCursor cursor = bc.CursorOver(section.begin, section.end);
  uint64_t count = 0;
  PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "the string count"));
  std::vector<uint64_t> sizes(count);
  for (uint64_t i = 0; i < count; ++i) {
    PHAL_RETURN_IF_ERROR(
        cursor.ReadVarInt(&sizes[count - 1 - i], "a string length"));
  }
  bc.strings.resize(count);
  std::size_t data = cursor.position();
  for (uint64_t i = 0; i < count; ++i) {
    if (sizes[i] == 0 || sizes[i] > section.end - data) {
      return cursor.ErrorAt(data, "string " + std::to_string(i) + " of " +
                                      std::to_string(sizes[i]) +
                                      " bytes does not fit the section");
    }
    if (bc.file[data + sizes[i] - 1] != '\0') {
      return cursor.ErrorAt(data + sizes[i] - 1, "string " + std::to_string(i) +
                                                     " is not NUL-terminated");
    }
    bc.strings[i] = std::string(bc.file.substr(data, sizes[i] - 1));
    data += sizes[i];
  }
  if (data != section.end) {
    return cursor.ErrorAt(data,
                          "unexpected bytes after the string section's data");
  }
  return OkStatus();
}

Status ReadStringIndex(const MlirBytecode& bc, BytecodeCursor& cursor,
                       uint64_t index, std::string* out) {
  if (index >= bc.strings.size()) {
    return cursor.Error("string index " + std::to_string(index) +
                        " is out of range (" +
                        std::to_string(bc.strings.size()) + " strings)");
  }
  *out = bc.strings[index];
  return OkStatus();
}

Status ReadDialects(MlirBytecode& bc, const Section& section) {
  BytecodeCursor cursor = bc.CursorOver(section.begin, section.end);
  uint64_t count = 0;
  PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "the dialect count"));
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t name = 0;
    bool versioned = false;
    if (bc.version < kDialectVersioning) {
      PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&name, "a dialect name"));
    } else {
      PHAL_RETURN_IF_ERROR(
          cursor.ReadVarIntWithFlag(&name, &versioned, "a dialect name"));
    }
    bc.dialects.emplace_back();
    PHAL_RETURN_IF_ERROR(
        ReadStringIndex(bc, cursor, name, &bc.dialects.back()));
    if (versioned) {
      uint8_t id = 0;
      Section version;
      PHAL_RETURN_IF_ERROR(ReadSection(cursor, &id, &version));
      if (id != kDialectVersionsSection) {
        return cursor.ErrorAt(version.begin,
                              "expected the dialect version section of '" +
                                  bc.dialects.back() + "'");
      }
    }
  }
  if (bc.version >= kElideUnknownBlockArgLocation) {
    uint64_t op_count = 0;
    PHAL_RETURN_IF_ERROR(
        cursor.ReadCount(&op_count, 1, "the operation name count"));
  }
  while (!cursor.empty()) {
    uint64_t dialect = 0;
    uint64_t names = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&dialect, "a dialect index"));
    if (dialect >= bc.dialects.size()) {
      return cursor.Error("dialect index " + std::to_string(dialect) +
                          " is out of range");
    }
    PHAL_RETURN_IF_ERROR(cursor.ReadCount(&names, 1, "an operation count"));
    for (uint64_t i = 0; i < names; ++i) {
      BytecodeOperationName op;
      op.dialect = dialect;
      uint64_t name = 0;
      if (bc.version < kNativePropertiesEncoding) {
        PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&name, "an operation name"));
      } else {
        PHAL_RETURN_IF_ERROR(cursor.ReadVarIntWithFlag(&name, &op.registered,
                                                       "an operation name"));
      }
      PHAL_RETURN_IF_ERROR(ReadStringIndex(bc, cursor, name, &op.name));
      bc.operation_names.push_back(std::move(op));
    }
  }
  return OkStatus();
}

Status ReadAttributesAndTypes(MlirBytecode& bc, const Section& data,
                              const Section& offsets) {
  BytecodeCursor cursor = bc.CursorOver(offsets.begin, offsets.end);
  uint64_t attribute_count = 0;
  uint64_t type_count = 0;
  PHAL_RETURN_IF_ERROR(
      cursor.ReadCount(&attribute_count, 0, "the attribute count"));
  PHAL_RETURN_IF_ERROR(cursor.ReadCount(&type_count, 0, "the type count"));
  if (attribute_count + type_count > offsets.end - cursor.position()) {
    return cursor.Error("attribute and type counts exceed the offsets given");
  }
  std::size_t next = data.begin;
  auto read_entries = [&](uint64_t total,
                          std::vector<BytecodeTableEntry>* out) -> Status {
    while (out->size() < total) {
      uint64_t dialect = 0;
      uint64_t count = 0;
      PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&dialect, "a dialect index"));
      if (dialect >= bc.dialects.size()) {
        return cursor.Error("dialect index " + std::to_string(dialect) +
                            " is out of range");
      }
      PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&count, "an entry count"));
      if (count > total - out->size()) {
        return cursor.Error("an attribute or type group overruns the count");
      }
      for (uint64_t i = 0; i < count; ++i) {
        BytecodeTableEntry entry;
        uint64_t size = 0;
        entry.dialect = dialect;
        PHAL_RETURN_IF_ERROR(cursor.ReadVarIntWithFlag(
            &size, &entry.custom_encoding, "an entry size"));
        if (size > data.end - next) {
          return cursor.Error("an attribute or type entry of " +
                              std::to_string(size) +
                              " bytes runs past its section");
        }
        entry.begin = next;
        entry.end = next + size;
        next += size;
        out->push_back(entry);
      }
    }
    return OkStatus();
  };
  PHAL_RETURN_IF_ERROR(read_entries(attribute_count, &bc.attributes));
  PHAL_RETURN_IF_ERROR(read_entries(type_count, &bc.types));
  if (!cursor.empty()) {
    return cursor.Error("unexpected bytes after the attribute/type offsets");
  }
  return OkStatus();
}

Status ReadProperties(MlirBytecode& bc, const Section& section) {
  if (section.begin == section.end) return OkStatus();
  BytecodeCursor cursor = bc.CursorOver(section.begin, section.end);
  uint64_t count = 0;
  PHAL_RETURN_IF_ERROR(cursor.ReadCount(&count, 1, "the properties count"));
  for (uint64_t i = 0; i < count; ++i) {
    uint64_t size = 0;
    std::size_t begin = 0;
    PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&size, "a properties size"));
    PHAL_RETURN_IF_ERROR(cursor.ReadBytes(size, &begin, "properties"));
    bc.properties.emplace_back(begin, begin + size);
  }
  if (!cursor.empty()) {
    return cursor.Error("unexpected bytes after the properties");
  }
  return OkStatus();
}

}  // namespace

bool IsMlirBytecode(std::string_view bytes) {
  return bytes.size() >= 4 && bytes.substr(0, 4) == std::string_view("ML\xEFR");
}

Status BytecodeCursor::ErrorAt(std::size_t offset,
                               const std::string& message) const {
  return InvalidArgument(std::string(file_name_) + ": byte " +
                         std::to_string(offset) + ": " + message);
}

Status BytecodeCursor::ReadByte(uint8_t* out, std::string_view what) {
  if (position_ >= end_) {
    return Error("expected " + std::string(what) + ", found the end of " +
                 (end_ == file_.size() ? "the file" : "its section"));
  }
  *out = static_cast<uint8_t>(file_[position_++]);
  return OkStatus();
}

Status BytecodeCursor::ReadVarInt(uint64_t* out, std::string_view what) {
  const std::size_t at = position_;
  uint8_t first = 0;
  PHAL_RETURN_IF_ERROR(ReadByte(&first, what));
  if ((first & 1) != 0) {
    *out = first >> 1;
    return OkStatus();
  }
  int extra = 8;
  if (first != 0) {
    extra = 0;
    while (((first >> extra) & 1) == 0) ++extra;
  }
  if (end_ - position_ < static_cast<std::size_t>(extra)) {
    return ErrorAt(at, "expected " + std::string(what) + ": a varint of " +
                           std::to_string(extra + 1) +
                           " bytes runs past the end");
  }
  uint64_t value = 0;
  for (int i = extra - 1; i >= 0; --i) {
    value = (value << 8) | static_cast<uint8_t>(file_[position_ + i]);
  }
  position_ += extra;
  if (first == 0) {
    *out = value;
  } else {
    value = (value << 8) | first;
    *out = value >> (extra + 1);
  }
  return OkStatus();
}

Status BytecodeCursor::ReadSignedVarInt(int64_t* out, std::string_view what) {
  uint64_t value = 0;
  PHAL_RETURN_IF_ERROR(ReadVarInt(&value, what));
  *out = static_cast<int64_t>((value >> 1) ^ (~(value & 1) + 1));
  return OkStatus();
}

Status BytecodeCursor::ReadVarIntWithFlag(uint64_t* out, bool* flag,
                                          std::string_view what) {
  uint64_t value = 0;
  PHAL_RETURN_IF_ERROR(ReadVarInt(&value, what));
  *flag = (value & 1) != 0;
  *out = value >> 1;
  return OkStatus();
}

Status BytecodeCursor::ReadBytes(uint64_t size, std::size_t* out_begin,
                                 std::string_view what) {
  if (size > end_ - position_) {
    return Error("expected " + std::string(what) + " of " +
                 std::to_string(size) + " bytes; only " +
                 std::to_string(end_ - position_) + " remain");
  }
  *out_begin = position_;
  position_ += size;
  return OkStatus();
}

Status BytecodeCursor::ReadNullTerminated(std::string* out,
                                          std::string_view what) {
  const std::size_t nul = file_.find('\0', position_);
  if (nul == std::string_view::npos || nul >= end_) {
    return Error("expected " + std::string(what) +
                 ": no NUL terminator before the end");
  }
  *out = std::string(file_.substr(position_, nul - position_));
  position_ = nul + 1;
  return OkStatus();
}

Status BytecodeCursor::ReadCount(uint64_t* out, std::size_t min_element_bytes,
                                 std::string_view what) {
  const std::size_t at = position_;
  PHAL_RETURN_IF_ERROR(ReadVarInt(out, what));
  const std::size_t left = end_ - position_;
  if (min_element_bytes > 0 && *out > left / min_element_bytes + 1) {
    return ErrorAt(at, "expected " + std::string(what) + ": " +
                           std::to_string(*out) + " entries cannot fit the " +
                           std::to_string(left) + " bytes left");
  }
  return OkStatus();
}

std::string MlirBytecode::OperationName(const BytecodeOperation& op) const {
  const BytecodeOperationName& name = operation_names[op.name];
  return dialects[name.dialect] + "." + name.name;
}

StatusOr<MlirBytecode> ReadMlirBytecode(std::string_view bytes,
                                        std::string_view file_name) {
  MlirBytecode bc;
  bc.file = bytes;
  bc.file_name = std::string(file_name);
  BytecodeCursor cursor(bytes, 0, bytes.size(), file_name);
  if (!IsMlirBytecode(bytes)) {
    return cursor.ErrorAt(0,
                          "expected the MLIR bytecode magic number 'ML\\xEFR'");
  }
  std::size_t magic = 0;
  PHAL_RETURN_IF_ERROR(cursor.ReadBytes(4, &magic, "the magic number"));
  const std::size_t version_at = cursor.position();
  PHAL_RETURN_IF_ERROR(cursor.ReadVarInt(&bc.version, "the bytecode version"));
  if (bc.version > kMlirBytecodeMaxVersion) {
    return cursor.ErrorAt(version_at,
                          "bytecode version " + std::to_string(bc.version) +
                              " is newer than the newest this reader knows (" +
                              std::to_string(kMlirBytecodeMaxVersion) + ")");
  }
  PHAL_RETURN_IF_ERROR(
      cursor.ReadNullTerminated(&bc.producer, "the producer string"));
  Section sections[kSectionCount];
  while (!cursor.empty()) {
    const std::size_t at = cursor.position();
    uint8_t id = 0;
    Section section;
    PHAL_RETURN_IF_ERROR(ReadSection(cursor, &id, &section));
    if (sections[id].present) {
      return cursor.ErrorAt(at,
                            "section " + std::to_string(id) + " appears twice");
    }
    sections[id] = section;
  }
  static const char* const kRequired[] = {"string", "dialect", "attribute",
                                          "attribute offset", "IR"};
  for (uint8_t id = 0; id <= kIrSection; ++id) {
    if (!sections[id].present) {
      return cursor.ErrorAt(bytes.size(), std::string("the ") + kRequired[id] +
                                              " section is missing");
    }
  }
  PHAL_RETURN_IF_ERROR(ReadStrings(bc, sections[kStringSection]));
  if (sections[kPropertiesSection].present) {
    PHAL_RETURN_IF_ERROR(ReadProperties(bc, sections[kPropertiesSection]));
  }
  PHAL_RETURN_IF_ERROR(ReadDialects(bc, sections[kDialectSection]));
  PHAL_RETURN_IF_ERROR(ReadAttributesAndTypes(
      bc, sections[kAttrTypeSection], sections[kAttrTypeOffsetSection]));
  BytecodeCursor ir =
      bc.CursorOver(sections[kIrSection].begin, sections[kIrSection].end);
  IrReader reader(bc);
  PHAL_RETURN_IF_ERROR(reader.ReadTop(ir));
  return bc;
}

}  // namespace phal
