// A phal_client owned for the length of one CLI command.
#ifndef POLYHAL_CORE_CLI_CLIENT_SESSION_H_
#define POLYHAL_CORE_CLI_CLIENT_SESSION_H_

#include <cstdio>
#include <memory>

#include "polyhal/runtime.h"

namespace phal::cli {

struct ClientDeleter {
  void operator()(phal_client_t* client) const { phal_client_destroy(client); }
};
using ClientPointer = std::unique_ptr<phal_client_t, ClientDeleter>;

// Creates a client from the environment; prints the error and returns NULL
// on failure.
inline ClientPointer OpenClient() {
  phal_client_t* client = nullptr;
  phal_status_t* status = phal_client_create(nullptr, &client);
  if (status != nullptr) {
    std::fprintf(stderr, "polyhal: cannot create a client: %s\n",
                 phal_status_get_message(status));
    phal_status_free(status);
    return nullptr;
  }
  return ClientPointer(client);
}

}  // namespace phal::cli

#endif  // POLYHAL_CORE_CLI_CLIENT_SESSION_H_
