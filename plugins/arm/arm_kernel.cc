#include "plugins/arm/arm_kernel.h"

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "plugins/arm/arm_memory.h"
#include "plugins/arm/arm_plugin.h"
#include "plugins/arm/arm_stream.h"
#include "sdk/base/byte_codec.h"
#include "sdk/base/element_types.h"
#include "sdk/base/hash.h"
#include "sdk/emitters/source/dialect.h"
#include "sdk/emitters/source/spirv_compiler.h"
#include "sdk/kir/facts.h"
#include "sdk/plugin_support/plugin_host.h"
#include "sdk/plugin_support/plugin_slots.h"

namespace phal::arm {
namespace {

// The serialized form (sdk/base/byte_codec.h): a header, the plugin
// version, the launch shape, the bindings' sizes and the SPIR-V.
constexpr std::string_view kMagic = "PHALARMK";
constexpr uint32_t kFormat = 1;

std::string SpirvBytes(const std::vector<uint32_t>& words) {
  return std::string(reinterpret_cast<const char*>(words.data()),
                     words.size() * sizeof(uint32_t));
}

// The SPIR-V of `glsl`, from the disk cache or shaderc.
StatusOr<std::vector<uint32_t>> Spirv(const Device& device,
                                      const std::string& glsl,
                                      const std::string& name) {
  const source_emitter::FloatControls& controls = device.float_controls();
  const uint64_t key =
      MixBits(Fnv1a(glsl, Fnv1a(source_emitter::SpirvCompilerIdentity() + "|" +
                                controls.Describe() + "|spirv")));
  if (std::optional<std::string> cached = device.disk_cache().Load(key);
      cached.has_value() && !cached->empty() &&
      cached->size() % sizeof(uint32_t) == 0) {
    std::vector<uint32_t> words(cached->size() / sizeof(uint32_t));
    std::memcpy(words.data(), cached->data(), cached->size());
    return words;
  }
  PHAL_ASSIGN_OR_RETURN(
      std::vector<uint32_t> words,
      source_emitter::CompileGlslToSpirv(glsl, name, controls));
  device.disk_cache().Store(key, SpirvBytes(words));
  return words;
}

Status Emit(const Device& device, const phal_kernel_desc_t* desc,
            const phal_kernel_options_t* /*options*/,
            phal_plugin_kernel_t** out) {
  if (desc == nullptr) return InvalidArgument("arm plugin: kernel is NULL");
  PHAL_ASSIGN_OR_RETURN(
      source_emitter::SourceKernel source,
      source_emitter::EmitSource(*desc, source_emitter::GlslDialect(),
                                 device.features()));
  auto kernel = std::make_unique<phal_plugin_kernel>(device);
  kernel->name = desc->name != nullptr ? desc->name : "kernel";
  kernel->launch = source.launch;
  for (uint32_t b = 0; b < desc->buffer_count; ++b) {
    kernel->buffer_bytes.push_back(BufferByteSize(desc->buffers[b]));
  }
  // PHAL_ARM_DUMP_DIR: every printed shader, as <kernel>.comp.
  if (const char* dump = std::getenv("PHAL_ARM_DUMP_DIR");
      dump != nullptr && *dump != '\0') {
    std::ofstream(std::string(dump) + "/" + kernel->name + ".comp")
        << source.source;
  }
  PHAL_ASSIGN_OR_RETURN(kernel->spirv,
                        Spirv(device, source.source, kernel->name + ".comp"));
  PHAL_RETURN_IF_ERROR(kernel->Build());
  *out = kernel.release();
  return OkStatus();
}

Status Launch(Stream& stream, const CompiledKernel& kernel,
              phal_plugin_buffer_t* const* buffers, uint32_t buffer_count) {
  if (buffer_count != kernel.buffer_bytes.size()) {
    return InvalidArgument("arm plugin: kernel " + kernel.name + " binds " +
                           std::to_string(kernel.buffer_bytes.size()) +
                           " buffers, the launch gave " +
                           std::to_string(buffer_count));
  }
  std::vector<VkBuffer> handles(buffer_count);
  for (uint32_t i = 0; i < buffer_count; ++i) {
    PHAL_RETURN_IF_ERROR(
        buffers[i]->buffer->CheckRange(0, kernel.buffer_bytes[i]));
    if (&buffers[i]->buffer->device() != &kernel.device) {
      return InvalidArgument("arm plugin: kernel " + kernel.name +
                             " launched with buffer " + std::to_string(i) +
                             " of another device");
    }
    handles[i] = buffers[i]->buffer->handle();
  }
  std::unique_ptr<Buffer> scratch;
  if (kernel.launch.scratch_bytes > 0) {
    PHAL_ASSIGN_OR_RETURN(
        scratch, Buffer::Create(kernel.device, kernel.launch.scratch_bytes,
                                kernel.device.buffer_memory_type()));
  }
  return stream.Launch(kernel, handles, std::move(scratch));
}

// The kernel as KernelDeserialize reads it: a header, the plugin version,
// the name, the launch shape, the buffer sizes and the SPIR-V.
std::string Encode(const CompiledKernel& kernel) {
  ByteWriter writer;
  writer.AddHeader(kMagic, kFormat);
  writer.AddString(PHAL_PLUGIN_VERSION);
  writer.AddString(kernel.name);
  const source_emitter::LaunchShape& launch = kernel.launch;
  writer.AddU64(launch.dimensions);
  for (uint32_t d = 0; d < 3; ++d) {
    writer.AddU64(launch.global_size[d]);
    writer.AddU64(launch.local_size[d]);
  }
  writer.AddU64(launch.scratch_bytes);
  writer.AddU64(kernel.buffer_bytes.size());
  for (uint64_t bytes : kernel.buffer_bytes) writer.AddU64(bytes);
  writer.AddString(SpirvBytes(kernel.spirv));
  return writer.Take();
}

}  // namespace

CompiledKernel::~CompiledKernel() {
  const DeviceFunctions& vk = device.vk();
  const VkDevice handle = device.handle();
  if (pipeline != VK_NULL_HANDLE)
    vk.vkDestroyPipeline(handle, pipeline, nullptr);
  if (layout != VK_NULL_HANDLE) {
    vk.vkDestroyPipelineLayout(handle, layout, nullptr);
  }
  if (set_layout != VK_NULL_HANDLE) {
    vk.vkDestroyDescriptorSetLayout(handle, set_layout, nullptr);
  }
  if (module != VK_NULL_HANDLE) {
    vk.vkDestroyShaderModule(handle, module, nullptr);
  }
}

Status CompiledKernel::Build() {
  const DeviceFunctions& vk = device.vk();
  const VkDevice handle = device.handle();
  bindings = static_cast<uint32_t>(buffer_bytes.size()) +
             (launch.scratch_bytes > 0 ? 1 : 0);
  VkShaderModuleCreateInfo shader{};
  shader.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  shader.codeSize = spirv.size() * sizeof(uint32_t);
  shader.pCode = spirv.data();
  PHAL_RETURN_IF_ERROR(
      VulkanStatus(vk.vkCreateShaderModule(handle, &shader, nullptr, &module),
                   "vkCreateShaderModule for kernel " + name));
  std::vector<VkDescriptorSetLayoutBinding> slots(bindings);
  for (uint32_t i = 0; i < bindings; ++i) {
    slots[i].binding = i;
    slots[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    slots[i].descriptorCount = 1;
    slots[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
  }
  VkDescriptorSetLayoutCreateInfo set{};
  set.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
  set.bindingCount = bindings;
  set.pBindings = slots.data();
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vk.vkCreateDescriptorSetLayout(handle, &set, nullptr, &set_layout),
      "vkCreateDescriptorSetLayout"));
  VkPipelineLayoutCreateInfo pipeline_layout{};
  pipeline_layout.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  pipeline_layout.setLayoutCount = 1;
  pipeline_layout.pSetLayouts = &set_layout;
  // The GLSL dialect's push constants: zeros (Stream::Launch pushes them).
  const VkPushConstantRange push_constants{
      VK_SHADER_STAGE_COMPUTE_BIT, 0, source_emitter::kGlslPushConstantBytes};
  pipeline_layout.pushConstantRangeCount = 1;
  pipeline_layout.pPushConstantRanges = &push_constants;
  PHAL_RETURN_IF_ERROR(VulkanStatus(
      vk.vkCreatePipelineLayout(handle, &pipeline_layout, nullptr, &layout),
      "vkCreatePipelineLayout"));
  // The work-group size is specialization constants 0, 1 and 2.
  uint32_t local[3];
  VkSpecializationMapEntry entries[3];
  for (uint32_t d = 0; d < 3; ++d) {
    local[d] =
        static_cast<uint32_t>(std::max<uint64_t>(1, launch.local_size[d]));
    entries[d] = {d, d * static_cast<uint32_t>(sizeof(uint32_t)),
                  sizeof(uint32_t)};
  }
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = 3;
  specialization.pMapEntries = entries;
  specialization.dataSize = sizeof(local);
  specialization.pData = local;
  VkComputePipelineCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  info.flags = VK_PIPELINE_CREATE_DISPATCH_BASE_BIT;
  info.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  info.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  info.stage.module = module;
  info.stage.pName = "main";
  info.stage.pSpecializationInfo = &specialization;
  info.layout = layout;
  return VulkanStatus(
      vk.vkCreateComputePipelines(handle, device.pipeline_cache(), 1, &info,
                                  nullptr, &pipeline),
      "vkCreateComputePipelines for kernel " + name);
}

PHAL_DEFINE_KERNEL_SLOTS("arm plugin")

phal_status_t* KernelDeserialize(phal_plugin_device_t* device, const void* data,
                                 uint64_t size,
                                 phal_plugin_kernel_t** out_kernel) noexcept {
  return RunAtAbiBoundary([&]() -> Status {
    const Status refused = FailedPrecondition(
        "arm plugin: the bytes are not a kernel this plugin version "
        "serialized");
    if (data == nullptr) return refused;
    ByteReader reader(std::string_view(static_cast<const char*>(data), size));
    uint32_t format = 0;
    std::string_view version, name, spirv;
    if (!reader.ReadHeader(kMagic, &format) || format != kFormat ||
        !reader.ReadString(&version) || version != PHAL_PLUGIN_VERSION ||
        !reader.ReadString(&name)) {
      return refused;
    }
    auto kernel = std::make_unique<phal_plugin_kernel>(*device);
    kernel->name = std::string(name);
    uint64_t value = 0, count = 0;
    source_emitter::LaunchShape& launch = kernel->launch;
    bool ok = reader.ReadU64(&value) && value >= 1 && value <= 3;
    launch.dimensions = static_cast<uint32_t>(value);
    for (uint32_t d = 0; ok && d < 3; ++d) {
      ok = reader.ReadU64(&launch.global_size[d]) &&
           reader.ReadU64(&launch.local_size[d]);
    }
    ok = ok && reader.ReadU64(&launch.scratch_bytes) &&
         reader.ReadU64(&count) && count <= 4096;
    for (uint64_t i = 0; ok && i < count; ++i) {
      ok = reader.ReadU64(&value);
      kernel->buffer_bytes.push_back(value);
    }
    ok = ok && reader.ReadString(&spirv) && reader.at_end() && !spirv.empty() &&
         spirv.size() % sizeof(uint32_t) == 0;
    if (!ok) return refused;
    kernel->spirv.resize(spirv.size() / sizeof(uint32_t));
    std::memcpy(kernel->spirv.data(), spirv.data(), spirv.size());
    PHAL_RETURN_IF_ERROR(kernel->Build());
    *out_kernel = kernel.release();
    return OkStatus();
  });
}

}  // namespace phal::arm
