// A TCP port of the loopback address that nothing listens on now (the
// kernel's choice, released at once), for tests that form jobs over TCP.
#ifndef POLYHAL_CORE_TESTING_FREE_PORT_H_
#define POLYHAL_CORE_TESTING_FREE_PORT_H_

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace phal::testing {

inline int FreePort() {
  const int fd = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof(address));
  socklen_t length = sizeof(address);
  getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length);
  close(fd);
  return ntohs(address.sin_port);
}

}  // namespace phal::testing

#endif  // POLYHAL_CORE_TESTING_FREE_PORT_H_
