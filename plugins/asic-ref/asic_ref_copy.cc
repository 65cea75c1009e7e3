// Copies between host memory and buffers, and between buffers, queued on a
// stream. The simulator does not model the host link, so a copy is a
// memcpy into or out of the DRAM's backing bytes and costs no device
// cycles.
#include "asic_ref_memory.h"
#include "asic_ref_plugin.h"
#include "asic_ref_stream.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::asic_ref {

PHAL_DEFINE_STREAM_COPY_SLOTS()

}  // namespace phal::asic_ref
