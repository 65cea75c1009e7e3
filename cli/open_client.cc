// The client every CLI command that touches plugins starts from.
#include <cstdio>

#include "cli/command.h"

namespace phal::cli {

Result<Client> OpenClient() {
  Result<Client> client = Client::Create();
  if (!client.ok()) {
    std::fprintf(stderr, "polyhal: cannot create a client: %s\n",
                 client.error().ToString().c_str());
  }
  return client;
}

}  // namespace phal::cli
