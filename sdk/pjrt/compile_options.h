// What Polyhal's PJRT plugin reads of PJRT's serialized compile options (an
// xla.CompileOptionsProto): the replica and partition counts and the device
// assignment; and the device assignment it writes back. Internal to
// libpolyhal_pjrt.
#ifndef POLYHAL_SDK_PJRT_COMPILE_OPTIONS_H_
#define POLYHAL_SDK_PJRT_COMPILE_OPTIONS_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace phal::pjrt {

struct CompileOptions {
  int64_t num_replicas = 1;
  int64_t num_partitions = 1;
  // device_ids[r][c]: the device id of replica r of computation
  // (partition) c; empty when the options give no assignment.
  std::vector<std::vector<int64_t>> device_ids;
};

// Reads the protobuf wire format; unknown fields are skipped. False, with
// `error` saying where, for bytes that are not a well-formed message.
bool ParseCompileOptions(const char* data, size_t size, CompileOptions* out,
                         std::string* error);

// The xla.DeviceAssignmentProto of `device_ids` (process k of replica
// k / partitions, partition k % partitions runs on device_ids[k]).
std::string SerializeDeviceAssignment(int64_t replicas, int64_t partitions,
                                      const std::vector<int64_t>& device_ids);

}  // namespace phal::pjrt

#endif  // POLYHAL_SDK_PJRT_COMPILE_OPTIONS_H_
