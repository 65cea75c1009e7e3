#include "sdk/pjrt/pjrt_error.h"

#include <utility>

#include "sdk/pjrt/pjrt_entry_points.h"

namespace phal::pjrt {

PJRT_Error* MakeError(PJRT_Error_Code code, std::string message) {
  auto* error = new PJRT_Error;
  error->code = code;
  error->message = std::move(message);
  return error;
}

PJRT_Error* FromStatus(phal_status_t* status) {
  if (status == nullptr) return nullptr;
  // Polyhal's status codes are PJRT's (both follow absl::StatusCode).
  PJRT_Error* error =
      MakeError(static_cast<PJRT_Error_Code>(phal_status_get_code(status)),
                phal_status_get_message(status));
  phal_status_free(status);
  return error;
}

PJRT_Error* CheckArgs(const char* function, size_t given, size_t needed) {
  if (given >= needed) return nullptr;
  return MakeError(PJRT_Error_Code_INVALID_ARGUMENT,
                   std::string(function) + ": struct_size " +
                       std::to_string(given) + " is smaller than the " +
                       std::to_string(needed) +
                       " bytes of the fields Polyhal's plugin reads");
}

PJRT_Event* MakeEvent(const PJRT_Error* error) {
  auto* event = new PJRT_Event;
  if (error != nullptr) {
    event->code = error->code;
    event->message = error->message;
  }
  return event;
}

namespace {

struct TypePair {
  phal_element_type_t polyhal;
  PJRT_Buffer_Type pjrt;
  const char* name;
};

constexpr TypePair kTypes[] = {
    {PHAL_ELEMENT_TYPE_PRED, PJRT_Buffer_Type_PRED, "pred"},
    {PHAL_ELEMENT_TYPE_S8, PJRT_Buffer_Type_S8, "s8"},
    {PHAL_ELEMENT_TYPE_S16, PJRT_Buffer_Type_S16, "s16"},
    {PHAL_ELEMENT_TYPE_S32, PJRT_Buffer_Type_S32, "s32"},
    {PHAL_ELEMENT_TYPE_S64, PJRT_Buffer_Type_S64, "s64"},
    {PHAL_ELEMENT_TYPE_U8, PJRT_Buffer_Type_U8, "u8"},
    {PHAL_ELEMENT_TYPE_U16, PJRT_Buffer_Type_U16, "u16"},
    {PHAL_ELEMENT_TYPE_U32, PJRT_Buffer_Type_U32, "u32"},
    {PHAL_ELEMENT_TYPE_U64, PJRT_Buffer_Type_U64, "u64"},
    {PHAL_ELEMENT_TYPE_F16, PJRT_Buffer_Type_F16, "f16"},
    {PHAL_ELEMENT_TYPE_BF16, PJRT_Buffer_Type_BF16, "bf16"},
    {PHAL_ELEMENT_TYPE_F32, PJRT_Buffer_Type_F32, "f32"},
    {PHAL_ELEMENT_TYPE_F64, PJRT_Buffer_Type_F64, "f64"},
    {PHAL_ELEMENT_TYPE_C64, PJRT_Buffer_Type_C64, "c64"},
    {PHAL_ELEMENT_TYPE_C128, PJRT_Buffer_Type_C128, "c128"},
};

}  // namespace

PJRT_Buffer_Type ToPjrtType(phal_element_type_t type) {
  for (const TypePair& pair : kTypes) {
    if (pair.polyhal == type) return pair.pjrt;
  }
  return PJRT_Buffer_Type_INVALID;
}

phal_element_type_t ToPolyhalType(PJRT_Buffer_Type type) {
  for (const TypePair& pair : kTypes) {
    if (pair.pjrt == type) return pair.polyhal;
  }
  return PHAL_ELEMENT_TYPE_INVALID;
}

const char* PjrtTypeName(PJRT_Buffer_Type type) {
  for (const TypePair& pair : kTypes) {
    if (pair.pjrt == type) return pair.name;
  }
  return "a type Polyhal does not have";
}

}  // namespace phal::pjrt

namespace phal::pjrt {

void Error_Destroy(PJRT_Error_Destroy_Args* args) {
  if (args == nullptr) return;
  delete args->error;
}

void Error_Message(PJRT_Error_Message_Args* args) {
  if (args == nullptr || args->error == nullptr) return;
  args->message = args->error->message.c_str();
  args->message_size = args->error->message.size();
}

PJRT_Error* Error_GetCode(PJRT_Error_GetCode_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Error_GetCode_Args, args);
  args->code = args->error->code;
  return nullptr;
}

}  // namespace phal::pjrt
