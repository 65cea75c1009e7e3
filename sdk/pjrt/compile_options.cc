#include "sdk/pjrt/compile_options.h"

namespace phal::pjrt {
namespace {

// Field numbers of xla.CompileOptionsProto, ExecutableBuildOptionsProto and
// DeviceAssignmentProto.
constexpr uint64_t kExecutableBuildOptions = 3;
constexpr uint64_t kNumReplicas = 4;
constexpr uint64_t kNumPartitions = 5;
constexpr uint64_t kDeviceAssignment = 9;
constexpr uint64_t kComputationDevices = 3;
constexpr uint64_t kReplicaDeviceIds = 1;

struct Field {
  uint64_t number = 0;
  int wire_type = 0;
  uint64_t varint = 0;
  const char* data = nullptr;  // length-delimited
  size_t size = 0;
};

class WireReader {
 public:
  WireReader(const char* data, size_t size) : p_(data), end_(data + size) {}
  bool done() const { return p_ >= end_; }
  size_t offset(const char* base) const {
    return static_cast<size_t>(p_ - base);
  }

  bool Varint(uint64_t* out) {
    *out = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p_ >= end_) return false;
      const uint8_t byte = static_cast<uint8_t>(*p_++);
      *out |= static_cast<uint64_t>(byte & 0x7f) << shift;
      if ((byte & 0x80) == 0) return true;
    }
    return false;
  }

  bool Next(Field* field) {
    uint64_t tag = 0;
    if (!Varint(&tag)) return false;
    field->number = tag >> 3;
    field->wire_type = static_cast<int>(tag & 7);
    switch (field->wire_type) {
      case 0:
        return Varint(&field->varint);
      case 1:
        return Skip(8);
      case 5:
        return Skip(4);
      case 2: {
        uint64_t size = 0;
        if (!Varint(&size) || size > static_cast<uint64_t>(end_ - p_)) {
          return false;
        }
        field->data = p_;
        field->size = static_cast<size_t>(size);
        p_ += size;
        return true;
      }
      default:
        return false;
    }
  }

 private:
  bool Skip(size_t n) {
    if (static_cast<size_t>(end_ - p_) < n) return false;
    p_ += n;
    return true;
  }

  const char* p_;
  const char* end_;
};

bool ParseComputationDevices(const Field& message, std::vector<int64_t>* out) {
  WireReader reader(message.data, message.size);
  Field field;
  while (!reader.done()) {
    if (!reader.Next(&field)) return false;
    if (field.number != kReplicaDeviceIds) continue;
    if (field.wire_type == 0) {
      out->push_back(static_cast<int64_t>(field.varint));
    } else if (field.wire_type == 2) {  // packed
      WireReader packed(field.data, field.size);
      while (!packed.done()) {
        uint64_t value = 0;
        if (!packed.Varint(&value)) return false;
        out->push_back(static_cast<int64_t>(value));
      }
    }
  }
  return true;
}

bool ParseDeviceAssignment(const Field& message, CompileOptions* out) {
  WireReader reader(message.data, message.size);
  Field field;
  // Stored computation-major: computation_devices[c].replica_device_ids[r].
  std::vector<std::vector<int64_t>> by_computation;
  while (!reader.done()) {
    if (!reader.Next(&field)) return false;
    if (field.number == kComputationDevices && field.wire_type == 2) {
      by_computation.emplace_back();
      if (!ParseComputationDevices(field, &by_computation.back())) return false;
    }
  }
  out->device_ids.clear();
  for (size_t c = 0; c < by_computation.size(); ++c) {
    for (size_t r = 0; r < by_computation[c].size(); ++r) {
      if (out->device_ids.size() <= r) out->device_ids.resize(r + 1);
      out->device_ids[r].push_back(by_computation[c][r]);
    }
  }
  return true;
}

bool ParseBuildOptions(const Field& message, CompileOptions* out) {
  WireReader reader(message.data, message.size);
  Field field;
  while (!reader.done()) {
    if (!reader.Next(&field)) return false;
    if (field.number == kNumReplicas && field.wire_type == 0) {
      out->num_replicas = static_cast<int64_t>(field.varint);
    } else if (field.number == kNumPartitions && field.wire_type == 0) {
      out->num_partitions = static_cast<int64_t>(field.varint);
    } else if (field.number == kDeviceAssignment && field.wire_type == 2) {
      if (!ParseDeviceAssignment(field, out)) return false;
    }
  }
  return true;
}

void PutVarint(uint64_t value, std::string* out) {
  while (value >= 0x80) {
    out->push_back(static_cast<char>((value & 0x7f) | 0x80));
    value >>= 7;
  }
  out->push_back(static_cast<char>(value));
}

void PutLengthDelimited(uint64_t field, const std::string& bytes,
                        std::string* out) {
  PutVarint(field << 3 | 2, out);
  PutVarint(bytes.size(), out);
  out->append(bytes);
}

}  // namespace

std::string SerializeDeviceAssignment(int64_t replicas, int64_t partitions,
                                      const std::vector<int64_t>& device_ids) {
  constexpr uint64_t kReplicaCount = 1;
  constexpr uint64_t kComputationCount = 2;
  std::string out;
  PutVarint(kReplicaCount << 3, &out);
  PutVarint(static_cast<uint64_t>(replicas), &out);
  PutVarint(kComputationCount << 3, &out);
  PutVarint(static_cast<uint64_t>(partitions), &out);
  for (int64_t c = 0; c < partitions; ++c) {
    std::string ids;
    for (int64_t r = 0; r < replicas; ++r) {
      PutVarint(static_cast<uint64_t>(
                    device_ids[static_cast<size_t>(r * partitions + c)]),
                &ids);
    }
    std::string computation;
    PutLengthDelimited(kReplicaDeviceIds, ids, &computation);
    PutLengthDelimited(kComputationDevices, computation, &out);
  }
  return out;
}

bool ParseCompileOptions(const char* data, size_t size, CompileOptions* out,
                         std::string* error) {
  WireReader reader(data, size);
  Field field;
  while (!reader.done()) {
    const size_t at = reader.offset(data);
    if (!reader.Next(&field) ||
        (field.number == kExecutableBuildOptions && field.wire_type == 2 &&
         !ParseBuildOptions(field, out))) {
      *error =
          "the compile options are not a well-formed "
          "xla.CompileOptionsProto (byte " +
          std::to_string(at) + " of " + std::to_string(size) + ")";
      return false;
    }
  }
  if (out->num_replicas < 1) out->num_replicas = 1;
  if (out->num_partitions < 1) out->num_partitions = 1;
  return true;
}

}  // namespace phal::pjrt
