// PJRT events. Polyhal's calls finish before they return, so an event is
// signalled when it is made: Await returns at once and OnReady calls back
// on the caller's thread.
#include "sdk/pjrt/pjrt_entry_points.h"
#include "sdk/pjrt/pjrt_error.h"

namespace phal::pjrt {
namespace {

PJRT_Error* ErrorOf(const PJRT_Event* event) {
  if (event->code == PJRT_Error_Code_OK) return nullptr;
  return MakeError(event->code, event->message);
}

}  // namespace

PJRT_Error* Event_Destroy(PJRT_Event_Destroy_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Event_Destroy_Args, args);
  delete args->event;
  return nullptr;
}

PJRT_Error* Event_IsReady(PJRT_Event_IsReady_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Event_IsReady_Args, args);
  args->is_ready = true;
  return nullptr;
}

PJRT_Error* Event_Error(PJRT_Event_Error_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Event_Error_Args, args);
  return ErrorOf(args->event);
}

PJRT_Error* Event_Await(PJRT_Event_Await_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Event_Await_Args, args);
  return ErrorOf(args->event);
}

PJRT_Error* Event_OnReady(PJRT_Event_OnReady_Args* args) {
  PHAL_PJRT_CHECK_ARGS(PJRT_Event_OnReady_Args, args);
  // The callback owns the error it is given.
  args->callback(ErrorOf(args->event), args->user_arg);
  return nullptr;
}

}  // namespace phal::pjrt
