#include "sdk/emitters/source/spirv_compiler.h"

#include <glslang/Include/glslang_c_interface.h>
#include <glslang/Public/resource_limits_c.h>
#include <glslang/build_info.h>
#include <spirv-tools/libspirv.h>

#include <cstddef>
#include <memory>
#include <mutex>
#include <string>

namespace phal::source_emitter {
namespace {

void InitializeOnce() {
  static std::once_flag once;
  std::call_once(once, [] { glslang_initialize_process(); });
}

// glslang's log with the shader's name in front of each line.
std::string Log(const std::string& name, const char* log) {
  std::string text;
  if (log == nullptr) return text;
  std::string line;
  for (const char* c = log;; ++c) {
    if (*c == '\n' || *c == '\0') {
      if (!line.empty()) text += name + ": " + line + "\n";
      line.clear();
      if (*c == '\0') break;
    } else {
      line.push_back(*c);
    }
  }
  return text;
}

// SPIR-V's numbers for what AddFloatControls writes (the SPIR-V
// specification, 3.6 Execution Mode, 3.31 Capability, 3.32 Instructions).
constexpr uint32_t kMagic = 0x07230203;
constexpr uint32_t kHeaderWords = 5;
constexpr uint32_t kOpExecutionMode = 16;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kOpCapability = 17;
constexpr uint32_t kCapabilityFloat64 = 10;
constexpr uint32_t kModeDenormPreserve = 4459;
constexpr uint32_t kModeSignedZeroInfNanPreserve = 4461;
constexpr uint32_t kCapabilityDenormPreserve = 4464;
constexpr uint32_t kCapabilitySignedZeroInfNanPreserve = 4466;

uint32_t Instruction(uint32_t words, uint32_t opcode) {
  return (words << 16) | opcode;
}

}  // namespace

std::string FloatControls::Describe() const {
  std::string text;
  const auto add = [&](bool on, const char* name) {
    if (!on) return;
    if (!text.empty()) text += ' ';
    text += name;
  };
  add(signed_zero_inf_nan_preserve_f32, "szinp32");
  add(signed_zero_inf_nan_preserve_f64, "szinp64");
  add(denorm_preserve_f32, "denorm32");
  add(denorm_preserve_f64, "denorm64");
  return text;
}

Status AddFloatControls(const FloatControls& controls,
                        std::vector<uint32_t>* words) {
  std::vector<uint32_t>& w = *words;
  if (w.size() < kHeaderWords || w[0] != kMagic) {
    return InvalidArgument("AddFloatControls: not a SPIR-V module");
  }
  std::vector<uint32_t> capabilities, entry_points;
  size_t after_entry_points = 0;
  for (size_t at = kHeaderWords; at < w.size();) {
    const uint32_t count = w[at] >> 16, opcode = w[at] & 0xffff;
    if (count == 0 || at + count > w.size()) {
      return InvalidArgument("AddFloatControls: instruction at word " +
                             std::to_string(at) + " runs past the module");
    }
    if (opcode == kOpCapability && count == 2)
      capabilities.push_back(w[at + 1]);
    if (opcode == kOpEntryPoint && count >= 3) {
      entry_points.push_back(w[at + 2]);
      after_entry_points = at + count;
    }
    at += count;
  }
  if (entry_points.empty()) return OkStatus();
  const auto has = [&](uint32_t capability) {
    for (uint32_t c : capabilities) {
      if (c == capability) return true;
    }
    return false;
  };
  const bool f64 = has(kCapabilityFloat64);
  struct Mode {
    bool on;
    uint32_t mode, capability, width;
  };
  const Mode modes[] = {
      {controls.signed_zero_inf_nan_preserve_f32, kModeSignedZeroInfNanPreserve,
       kCapabilitySignedZeroInfNanPreserve, 32},
      {controls.signed_zero_inf_nan_preserve_f64 && f64,
       kModeSignedZeroInfNanPreserve, kCapabilitySignedZeroInfNanPreserve, 64},
      {controls.denorm_preserve_f32, kModeDenormPreserve,
       kCapabilityDenormPreserve, 32},
      {controls.denorm_preserve_f64 && f64, kModeDenormPreserve,
       kCapabilityDenormPreserve, 64},
  };
  std::vector<uint32_t> new_modes, new_capabilities;
  for (const Mode& mode : modes) {
    if (!mode.on) continue;
    for (uint32_t entry : entry_points) {
      new_modes.insert(new_modes.end(), {Instruction(4, kOpExecutionMode),
                                         entry, mode.mode, mode.width});
    }
    if (!has(mode.capability)) {
      capabilities.push_back(mode.capability);
      new_capabilities.insert(new_capabilities.end(),
                              {Instruction(2, kOpCapability), mode.capability});
    }
  }
  // Execution modes follow the entry points, capabilities open the module:
  // the later position first, so the earlier one stays where it was.
  w.insert(w.begin() + static_cast<std::ptrdiff_t>(after_entry_points),
           new_modes.begin(), new_modes.end());
  w.insert(w.begin() + kHeaderWords, new_capabilities.begin(),
           new_capabilities.end());
  return OkStatus();
}

StatusOr<std::vector<uint32_t>> CompileGlslToSpirv(
    std::string_view source, std::string_view name,
    const FloatControls& controls) {
  InitializeOnce();
  const std::string code(source), file(name);
  glslang_input_t input{};
  input.language = GLSLANG_SOURCE_GLSL;
  input.stage = GLSLANG_STAGE_COMPUTE;
  input.client = GLSLANG_CLIENT_VULKAN;
  input.client_version = GLSLANG_TARGET_VULKAN_1_2;
  input.target_language = GLSLANG_TARGET_SPV;
  input.target_language_version = GLSLANG_TARGET_SPV_1_5;
  input.code = code.c_str();
  input.default_version = 450;
  input.default_profile = GLSLANG_NO_PROFILE;
  input.messages = static_cast<glslang_messages_t>(
      GLSLANG_MSG_SPV_RULES_BIT | GLSLANG_MSG_VULKAN_RULES_BIT);
  input.resource = glslang_default_resource();
  const std::unique_ptr<glslang_shader_t, void (*)(glslang_shader_t*)> shader(
      glslang_shader_create(&input), glslang_shader_delete);
  if (shader == nullptr) {
    return ResourceExhausted("glslang: cannot create a shader for " + file);
  }
  if (glslang_shader_preprocess(shader.get(), &input) == 0 ||
      glslang_shader_parse(shader.get(), &input) == 0) {
    return InvalidArgument(
        "GLSL compute shader " + file + " does not compile:\n" +
        Log(file, glslang_shader_get_info_log(shader.get())));
  }
  const std::unique_ptr<glslang_program_t, void (*)(glslang_program_t*)>
      program(glslang_program_create(), glslang_program_delete);
  glslang_program_add_shader(program.get(), shader.get());
  if (glslang_program_link(program.get(), input.messages) == 0) {
    return InvalidArgument(
        "GLSL compute shader " + file + " does not link:\n" +
        Log(file, glslang_program_get_info_log(program.get())));
  }
  // SPIRV-Tools' optimizer: constant tables become constant data and
  // unused code goes, which keeps drivers' own compile short.
  glslang_spv_options_t spv{};
  spv.disable_optimizer = false;
  spv.strip_debug_info = true;
  glslang_program_SPIRV_generate_with_options(program.get(),
                                              GLSLANG_STAGE_COMPUTE, &spv);
  if (const char* messages = glslang_program_SPIRV_get_messages(program.get());
      messages != nullptr && messages[0] != '\0') {
    return InvalidArgument("GLSL compute shader " + file + " has no SPIR-V:\n" +
                           Log(file, messages));
  }
  std::vector<uint32_t> words(glslang_program_SPIRV_get_size(program.get()));
  glslang_program_SPIRV_get(program.get(), words.data());
  PHAL_RETURN_IF_ERROR(AddFloatControls(controls, &words));
  PHAL_RETURN_IF_ERROR(ValidateSpirv(words, file));
  return words;
}

Status ValidateSpirv(const std::vector<uint32_t>& words,
                     std::string_view name) {
  const std::unique_ptr<spv_context_t, void (*)(spv_context)> context(
      spvContextCreate(SPV_ENV_VULKAN_1_2), spvContextDestroy);
  spv_const_binary_t binary = {words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  const spv_result_t result = spvValidate(context.get(), &binary, &diagnostic);
  std::string message = diagnostic != nullptr && diagnostic->error != nullptr
                            ? diagnostic->error
                            : "";
  spvDiagnosticDestroy(diagnostic);
  if (result == SPV_SUCCESS) return OkStatus();
  return Internal("the SPIR-V of " + std::string(name) +
                  " does not validate for Vulkan 1.2: " + message);
}

std::string SpirvCompilerIdentity() {
  return "glslang " + std::to_string(GLSLANG_VERSION_MAJOR) + "." +
         std::to_string(GLSLANG_VERSION_MINOR) + "." +
         std::to_string(GLSLANG_VERSION_PATCH) + " spirv 1.5 vulkan 1.2";
}

}  // namespace phal::source_emitter
