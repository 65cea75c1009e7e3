// Copies between host memory and buffers, and between buffers, queued on a
// stream.
#ifndef POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_COPY_H_
#define POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_COPY_H_

#include <cstdint>

#include "polyhal/plugin.h"

namespace phal::template_plugin {

phal_status_t* StreamCopyFromHost(phal_plugin_stream_t* stream,
                                  const void* source,
                                  phal_plugin_buffer_t* buffer, uint64_t offset,
                                  uint64_t byte_size) noexcept;
phal_status_t* StreamCopyToHost(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* buffer, uint64_t offset,
                                void* destination, uint64_t byte_size) noexcept;
phal_status_t* StreamCopyBuffer(phal_plugin_stream_t* stream,
                                phal_plugin_buffer_t* source,
                                uint64_t source_offset,
                                phal_plugin_buffer_t* destination,
                                uint64_t destination_offset,
                                uint64_t byte_size) noexcept;

}  // namespace phal::template_plugin

#endif  // POLYHAL_PLUGINS_TEMPLATE_TEMPLATE_COPY_H_
