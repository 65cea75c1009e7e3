#include "core/distributed/tcp_job.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <set>

#include "sdk/base/element_types.h"

namespace phal {
namespace {

using Clock = std::chrono::steady_clock;

constexpr uint32_t kHelloMagic = 0x314a4850;  // "PHJ1"

// The tags of a reduction group's messages, above every tag of the C API's
// exchanges (1 to 32767): one per group, since a group's all-reduces run
// one at a time and messages of one tag arrive in order. A group's tag is
// kFirstRingTag + (its first rank << kGroupBits) + how many groups that
// rank made first before it, which its first rank tells the others.
constexpr int kFirstRingTag = 1 << 20;
constexpr int kGroupBits = 14;
constexpr int kGroupTag = kFirstRingTag - 1;

// Below this size an all-reduce sends every rank's buffer to the others
// (one round) instead of a ring (2 (n - 1) rounds).
constexpr std::size_t kRingBytes = std::size_t{64} << 10;
constexpr uint32_t kTableMagic = 0x324a4850;  // "PHJ2"

// What a process says when it connects: who it is and where it listens.
struct Hello {
  uint32_t magic = kHelloMagic;
  int32_t rank = 0;
  int32_t size = 0;
  uint32_t port = 0;
};

struct TableEntry {
  uint32_t address = 0;  // IPv4, network order
  uint32_t port = 0;
};

// Every message after the job has formed: its tag and length, then its
// bytes.
struct FrameHeader {
  int32_t tag = 0;
  uint32_t reserved = 0;
  uint64_t size = 0;
};

std::string ErrnoText(int error) { return std::strerror(error); }

int RemainingMs(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
      deadline - Clock::now());
  return static_cast<int>(std::clamp<int64_t>(left.count(), 0, 1000000));
}

void SetNonBlocking(int fd) {
  fcntl(fd, F_SETFL, fcntl(fd, F_GETFL, 0) | O_NONBLOCK);
}

// A connected or listening socket, closed unless released.
class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) : fd_(fd) {}
  Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Socket& operator=(Socket&& other) noexcept {
    if (this != &other) {
      if (fd_ >= 0) close(fd_);
      fd_ = std::exchange(other.fd_, -1);
    }
    return *this;
  }
  ~Socket() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_ = -1;
};

Status WaitFor(int fd, short events, Clock::time_point deadline,
               const std::string& what) {
  for (;;) {
    pollfd entry{fd, events, 0};
    const int ready = poll(&entry, 1, RemainingMs(deadline));
    if (ready > 0) return OkStatus();
    if (ready == 0) return DeadlineExceeded(what);
    if (errno != EINTR) return Internal(what + ": poll: " + ErrnoText(errno));
  }
}

Status WriteAll(int fd, const void* data, std::size_t size,
                Clock::time_point deadline, const std::string& what) {
  const auto* bytes = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const ssize_t sent = send(fd, bytes, size, MSG_NOSIGNAL);
    if (sent > 0) {
      bytes += sent;
      size -= static_cast<std::size_t>(sent);
      continue;
    }
    if (sent < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      PHAL_RETURN_IF_ERROR(WaitFor(fd, POLLOUT, deadline, what));
      continue;
    }
    if (sent < 0 && errno == EINTR) continue;
    return Unavailable(what + ": " + ErrnoText(errno));
  }
  return OkStatus();
}

Status ReadAll(int fd, void* data, std::size_t size, Clock::time_point deadline,
               const std::string& what) {
  auto* bytes = static_cast<uint8_t*>(data);
  while (size > 0) {
    const ssize_t got = recv(fd, bytes, size, 0);
    if (got > 0) {
      bytes += got;
      size -= static_cast<std::size_t>(got);
      continue;
    }
    if (got == 0) return Unavailable(what + ": the connection closed");
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
      PHAL_RETURN_IF_ERROR(WaitFor(fd, POLLIN, deadline, what));
      continue;
    }
    if (errno == EINTR) continue;
    return Unavailable(what + ": " + ErrnoText(errno));
  }
  return OkStatus();
}

StatusOr<std::pair<std::string, uint16_t>> SplitAddress(
    const std::string& address) {
  const std::size_t colon = address.rfind(':');
  const auto bad = [&] {
    return InvalidArgument("the coordinator '" + address +
                           "' is not HOST:PORT (a port from 1 to 65535)");
  };
  if (colon == std::string::npos || colon == 0) return bad();
  const std::string port_text = address.substr(colon + 1);
  if (port_text.empty() || port_text.size() > 5 ||
      !std::all_of(port_text.begin(), port_text.end(),
                   [](char c) { return c >= '0' && c <= '9'; })) {
    return bad();
  }
  const int port = std::stoi(port_text);
  if (port < 1 || port > 65535) return bad();
  return std::make_pair(address.substr(0, colon), static_cast<uint16_t>(port));
}

StatusOr<sockaddr_in> Resolve(const std::string& host, uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const int code = getaddrinfo(host.c_str(), nullptr, &hints, &found);
  if (code != 0 || found == nullptr) {
    return InvalidArgument("the coordinator's host '" + host +
                           "' has no IPv4 address: " + gai_strerror(code));
  }
  sockaddr_in address{};
  std::memcpy(&address, found->ai_addr, sizeof(address));
  freeaddrinfo(found);
  address.sin_port = htons(port);
  return address;
}

StatusOr<Socket> Listen(uint16_t port, uint16_t* out_port,
                        const std::string& what) {
  Socket socket_fd(socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
  if (socket_fd.get() < 0) return Internal(what + ": " + ErrnoText(errno));
  const int one = 1;
  setsockopt(socket_fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  address.sin_port = htons(port);
  if (bind(socket_fd.get(), reinterpret_cast<sockaddr*>(&address),
           sizeof(address)) != 0) {
    return Unavailable(what + ": cannot listen on port " +
                       std::to_string(port) + ": " + ErrnoText(errno));
  }
  if (listen(socket_fd.get(), SOMAXCONN) != 0) {
    return Unavailable(what + ": listen: " + ErrnoText(errno));
  }
  socklen_t length = sizeof(address);
  getsockname(socket_fd.get(), reinterpret_cast<sockaddr*>(&address), &length);
  *out_port = ntohs(address.sin_port);
  SetNonBlocking(socket_fd.get());
  return socket_fd;
}

StatusOr<Socket> Accept(int listener, Clock::time_point deadline,
                        const std::string& what, sockaddr_in* out_peer) {
  for (;;) {
    PHAL_RETURN_IF_ERROR(WaitFor(listener, POLLIN, deadline, what));
    socklen_t length = sizeof(*out_peer);
    const int fd = accept4(listener, reinterpret_cast<sockaddr*>(out_peer),
                           &length, SOCK_CLOEXEC | SOCK_NONBLOCK);
    if (fd >= 0) return Socket(fd);
    if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR &&
        errno != ECONNABORTED) {
      return Internal(what + ": accept: " + ErrnoText(errno));
    }
  }
}

// Connects to `address`, trying again while nothing listens there yet (the
// peer may start later) until the deadline.
StatusOr<Socket> ConnectTo(const sockaddr_in& address,
                           Clock::time_point deadline,
                           const std::string& what) {
  std::string last = "nothing listens there";
  while (Clock::now() < deadline) {
    Socket socket_fd(
        socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
    if (socket_fd.get() < 0) return Internal(what + ": " + ErrnoText(errno));
    int code =
        connect(socket_fd.get(), reinterpret_cast<const sockaddr*>(&address),
                sizeof(address));
    if (code != 0 && errno == EINPROGRESS) {
      pollfd entry{socket_fd.get(), POLLOUT, 0};
      if (poll(&entry, 1, std::min(RemainingMs(deadline), 1000)) > 0) {
        int error = 0;
        socklen_t length = sizeof(error);
        getsockopt(socket_fd.get(), SOL_SOCKET, SO_ERROR, &error, &length);
        code = error == 0 ? 0 : -1;
        errno = error;
      } else {
        errno = ETIMEDOUT;
      }
    }
    if (code == 0) {
      const int one = 1;
      setsockopt(socket_fd.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
      return socket_fd;
    }
    last = ErrnoText(errno);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return DeadlineExceeded(what + ": " + last);
}

std::string AddressText(const sockaddr_in& address) {
  char text[INET_ADDRSTRLEN] = {};
  inet_ntop(AF_INET, &address.sin_addr, text, sizeof(text));
  return std::string(text) + ":" + std::to_string(ntohs(address.sin_port));
}

}  // namespace

TcpJob::TcpJob(int rank, int size, TransportReductions reductions)
    : RawHostTransport(rank, size), reductions_(reductions) {
  for (int r = 0; r < size; ++r) peers_.push_back(std::make_unique<Peer>());
  ChainReductions(*this);
}

StatusOr<std::unique_ptr<TcpJob>> TcpJob::Connect(
    const TcpJobOptions& options) {
  if (options.size < 1 || options.rank < 0 || options.rank >= options.size) {
    return InvalidArgument("process " + std::to_string(options.rank) +
                           " of a job of " + std::to_string(options.size) +
                           ": the process index must be in [0, " +
                           std::to_string(options.size) + ")");
  }
  PHAL_ASSIGN_OR_RETURN(const TransportReductions reductions,
                        TransportReductionsFromEnv("PHAL_TCP_REDUCTIONS"));
  PHAL_ASSIGN_OR_RETURN(auto host_port, SplitAddress(options.coordinator));
  PHAL_ASSIGN_OR_RETURN(sockaddr_in coordinator,
                        Resolve(host_port.first, host_port.second));
  const int me = options.rank;
  const int size = options.size;
  const auto deadline = Clock::now() + options.timeout;
  const std::string who = "process " + std::to_string(me) + " of " +
                          std::to_string(size) + " joining the job at " +
                          options.coordinator;
  std::unique_ptr<TcpJob> job(new TcpJob(me, size, reductions));
  std::vector<Socket> links(static_cast<std::size_t>(size));
  if (size > 1) {
    uint16_t port = 0;
    PHAL_ASSIGN_OR_RETURN(Socket listener,
                          Listen(me == 0 ? host_port.second : 0, &port, who));
    std::vector<TableEntry> table(static_cast<std::size_t>(size));
    if (me == 0) {
      // Every other process says hello; rank 0 checks and answers each
      // with the table, or with what is wrong.
      std::string problem;
      std::set<int> joined;
      std::vector<Socket> refused;  // a second claim of a rank
      for (int count = 1; count < size; ++count) {
        sockaddr_in peer{};
        StatusOr<Socket> accepted =
            Accept(listener.get(), deadline, who, &peer);
        if (!accepted.ok()) {
          if (!problem.empty()) break;
          std::vector<int> missing;
          for (int r = 1; r < size; ++r) {
            if (joined.count(r) == 0) missing.push_back(r);
          }
          return DeadlineExceeded(
              who + ": processes " + RankListToString(missing) +
              " did not join within " +
              std::to_string(options.timeout.count()) + " ms");
        }
        Hello hello;
        PHAL_RETURN_IF_ERROR(ReadAll(accepted->get(), &hello, sizeof(hello),
                                     deadline, who + ": reading a hello"));
        if (hello.magic != kHelloMagic) {
          return FailedPrecondition(who + ": " + AddressText(peer) +
                                    " is not a Polyhal process of the job");
        }
        const bool in_range = hello.rank > 0 && hello.rank < size;
        if (problem.empty() && hello.size != size) {
          problem = "process " + std::to_string(hello.rank) +
                    " says the job has " + std::to_string(hello.size) +
                    " processes, process 0 says " + std::to_string(size);
        } else if (problem.empty() &&
                   (!in_range || joined.count(hello.rank) != 0)) {
          problem = "process index " + std::to_string(hello.rank) + " (from " +
                    AddressText(peer) + ") is " +
                    (in_range ? std::string("claimed twice")
                              : "outside [1, " + std::to_string(size) + ")");
        }
        if (in_range && joined.count(hello.rank) == 0) {
          joined.insert(hello.rank);
          table[static_cast<std::size_t>(hello.rank)] = {peer.sin_addr.s_addr,
                                                         hello.port};
          links[static_cast<std::size_t>(hello.rank)] =
              std::move(accepted).value();
        } else {
          refused.push_back(std::move(accepted).value());
        }
      }
      const uint32_t header[2] = {kTableMagic,
                                  static_cast<uint32_t>(problem.size())};
      std::vector<int> told;
      for (const Socket& link : links) told.push_back(link.get());
      for (const Socket& link : refused) told.push_back(link.get());
      for (int fd : told) {
        if (fd < 0) continue;
        Status sent = WriteAll(fd, header, sizeof(header), deadline, who);
        if (!sent.ok()) continue;
        if (problem.empty()) {
          sent = WriteAll(fd, table.data(), table.size() * sizeof(TableEntry),
                          deadline, who);
        } else {
          sent = WriteAll(fd, problem.data(), problem.size(), deadline, who);
        }
      }
      if (!problem.empty()) return FailedPrecondition(who + ": " + problem);
    } else {
      PHAL_ASSIGN_OR_RETURN(
          Socket link,
          ConnectTo(coordinator, deadline,
                    who + ": process 0 did not answer at " +
                        options.coordinator + " within " +
                        std::to_string(options.timeout.count()) + " ms"));
      const Hello hello{kHelloMagic, me, size, port};
      PHAL_RETURN_IF_ERROR(
          WriteAll(link.get(), &hello, sizeof(hello), deadline, who));
      uint32_t header[2] = {};
      PHAL_RETURN_IF_ERROR(
          ReadAll(link.get(), header, sizeof(header), deadline,
                  who + ": waiting for process 0 to hear from every process"));
      if (header[0] != kTableMagic) {
        return FailedPrecondition(who + ": " + options.coordinator +
                                  " is not process 0 of a Polyhal job");
      }
      if (header[1] != 0) {
        std::string problem(header[1], '\0');
        PHAL_RETURN_IF_ERROR(
            ReadAll(link.get(), problem.data(), problem.size(), deadline, who));
        return FailedPrecondition(who +
                                  ": process 0 refused the job: " + problem);
      }
      PHAL_RETURN_IF_ERROR(ReadAll(link.get(), table.data(),
                                   table.size() * sizeof(TableEntry), deadline,
                                   who));
      links[0] = std::move(link);
      // Every process connects to those before it (but 0) and takes the
      // connections of those after it.
      for (int r = 1; r < me; ++r) {
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = table[static_cast<std::size_t>(r)].address;
        address.sin_port = htons(
            static_cast<uint16_t>(table[static_cast<std::size_t>(r)].port));
        PHAL_ASSIGN_OR_RETURN(
            Socket link_r,
            ConnectTo(address, deadline,
                      who + ": connecting to process " + std::to_string(r) +
                          " at " + AddressText(address)));
        const Hello mine{kHelloMagic, me, size, port};
        PHAL_RETURN_IF_ERROR(
            WriteAll(link_r.get(), &mine, sizeof(mine), deadline, who));
        links[static_cast<std::size_t>(r)] = std::move(link_r);
      }
      for (int count = me + 1; count < size; ++count) {
        sockaddr_in peer{};
        StatusOr<Socket> accepted =
            Accept(listener.get(), deadline, who, &peer);
        if (!accepted.ok()) {
          std::vector<int> missing;
          for (int r = me + 1; r < size; ++r) {
            if (links[static_cast<std::size_t>(r)].get() < 0) {
              missing.push_back(r);
            }
          }
          return DeadlineExceeded(
              who + ": processes " + RankListToString(missing) +
              " did not connect within " +
              std::to_string(options.timeout.count()) + " ms");
        }
        Hello hello;
        PHAL_RETURN_IF_ERROR(
            ReadAll(accepted->get(), &hello, sizeof(hello), deadline, who));
        if (hello.magic != kHelloMagic || hello.rank <= me ||
            hello.rank >= size ||
            links[static_cast<std::size_t>(hello.rank)].get() >= 0) {
          return FailedPrecondition(who + ": an unexpected connection from " +
                                    AddressText(peer));
        }
        links[static_cast<std::size_t>(hello.rank)] =
            std::move(accepted).value();
      }
    }
  }
  for (int r = 0; r < size; ++r) {
    Socket& link = links[static_cast<std::size_t>(r)];
    if (link.get() < 0) continue;
    SetNonBlocking(link.get());
    const int one = 1;
    setsockopt(link.get(), IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
    job->peers_[static_cast<std::size_t>(r)]->fd = link.release();
  }
  if (pipe2(job->wake_, O_CLOEXEC | O_NONBLOCK) != 0) {
    return Internal(who + ": pipe: " + ErrnoText(errno));
  }
  job->reader_ = std::thread([raw = job.get()] { raw->ReadLoop(); });
  return job;
}

TcpJob::~TcpJob() {
  // No more from this rank: the peers read what was sent, then the end.
  for (const std::unique_ptr<Peer>& peer : peers_) {
    if (peer->fd >= 0) shutdown(peer->fd, SHUT_WR);
  }
  if (wake_[1] >= 0) {
    const char byte = 0;
    static_cast<void>(write(wake_[1], &byte, 1));
  }
  if (reader_.joinable()) reader_.join();
  for (const std::unique_ptr<Peer>& peer : peers_) {
    if (peer->fd < 0) continue;
    // A socket closed with bytes unread resets the connection, which
    // throws away what this rank sent and the peer has not received yet:
    // read what is left first.
    uint8_t sink[4096];
    while (recv(peer->fd, sink, sizeof(sink), 0) > 0) {
    }
    close(peer->fd);
  }
  for (int fd : wake_) {
    if (fd >= 0) close(fd);
  }
}

void TcpJob::Abandon() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    abandoned_ = true;
  }
  for (const std::unique_ptr<Peer>& peer : peers_) {
    if (peer->fd >= 0) shutdown(peer->fd, SHUT_RDWR);
  }
  arrived_.notify_all();
}

void TcpJob::ReadLoop() {
  // Each peer's frame being read: its header, then its bytes.
  struct Partial {
    FrameHeader header;
    std::size_t header_got = 0;
    std::vector<uint8_t> bytes;
    std::size_t bytes_got = 0;
  };
  std::vector<Partial> partial(static_cast<std::size_t>(size()));
  std::vector<int> open;
  for (int r = 0; r < size(); ++r) {
    if (peers_[static_cast<std::size_t>(r)]->fd >= 0) open.push_back(r);
  }
  const auto end_peer = [&](int r, const std::string& why) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      std::string& closed = peers_[static_cast<std::size_t>(r)]->closed;
      if (closed.empty()) closed = why;
    }
    arrived_.notify_all();
    open.erase(std::find(open.begin(), open.end(), r));
  };
  for (;;) {
    std::vector<pollfd> entries;
    const std::vector<int> polled = open;
    entries.push_back({wake_[0], POLLIN, 0});
    for (int r : polled) {
      entries.push_back({peers_[static_cast<std::size_t>(r)]->fd, POLLIN, 0});
    }
    if (poll(entries.data(), entries.size(), -1) < 0) {
      if (errno == EINTR) continue;
      return;
    }
    if (entries[0].revents != 0) return;
    for (std::size_t e = 1; e < entries.size(); ++e) {
      if (entries[e].revents == 0) continue;
      const int r = polled[e - 1];
      Partial& frame = partial[static_cast<std::size_t>(r)];
      const int fd = entries[e].fd;
      // Read until the connection has nothing more for now.
      for (;;) {
        ssize_t got = 0;
        if (frame.header_got < sizeof(FrameHeader)) {
          got = recv(
              fd, reinterpret_cast<uint8_t*>(&frame.header) + frame.header_got,
              sizeof(FrameHeader) - frame.header_got, 0);
          if (got > 0) {
            frame.header_got += static_cast<std::size_t>(got);
            if (frame.header_got == sizeof(FrameHeader)) {
              frame.bytes.assign(frame.header.size, 0);
              frame.bytes_got = 0;
            }
          }
        } else {
          got = frame.bytes.size() == frame.bytes_got
                    ? 0
                    : recv(fd, frame.bytes.data() + frame.bytes_got,
                           frame.bytes.size() - frame.bytes_got, 0);
          if (got > 0) frame.bytes_got += static_cast<std::size_t>(got);
        }
        const bool complete = frame.header_got == sizeof(FrameHeader) &&
                              frame.bytes_got == frame.bytes.size();
        if (complete) {
          {
            std::lock_guard<std::mutex> lock(mutex_);
            mail_[{r, frame.header.tag}].push_back(std::move(frame.bytes));
          }
          arrived_.notify_all();
          frame = Partial();
          continue;
        }
        if (got > 0) continue;
        if (got == 0) {
          end_peer(r, "its connection closed");
        } else if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
          end_peer(r, "its connection failed: " + ErrnoText(errno));
        }
        break;
      }
    }
  }
}

Status TcpJob::Send(int peer, int tag, const void* data, std::size_t size,
                    Clock::time_point deadline, const std::string& what) {
  if (peer == rank()) {
    const auto* bytes = static_cast<const uint8_t*>(data);
    {
      std::lock_guard<std::mutex> lock(mutex_);
      mail_[{peer, tag}].emplace_back(bytes, bytes + size);
    }
    arrived_.notify_all();
    return OkStatus();
  }
  Peer& link = *peers_[static_cast<std::size_t>(peer)];
  std::lock_guard<std::mutex> lock(link.send_mutex);
  const FrameHeader header{tag, 0, size};
  const std::string context =
      what + ": sending to rank " + std::to_string(peer);
  Status sent = WriteAll(link.fd, &header, sizeof(header), deadline, context);
  if (sent.ok()) sent = WriteAll(link.fd, data, size, deadline, context);
  if (sent.code() == PHAL_DEADLINE_EXCEEDED) {
    return DeadlineExceeded(what + ": rank " + std::to_string(peer) +
                            " did not take this rank's messages in time");
  }
  if (!sent.ok()) {
    return Unavailable(what + ": rank " + std::to_string(peer) +
                       " left the job (" + sent.message() + ")");
  }
  return OkStatus();
}

Status TcpJob::ExchangeRaw(std::span<const phal_host_message_t> sends,
                           std::span<const phal_host_message_t> receives,
                           std::chrono::milliseconds timeout,
                           const std::string& what) {
  const auto deadline = Clock::now() + timeout;
  const auto check_peer = [&](int peer) -> Status {
    if (peer < 0 || peer >= size()) {
      return InvalidArgument(what + ": rank " + std::to_string(peer) +
                             " is not in the job of " + std::to_string(size()));
    }
    return OkStatus();
  };
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (abandoned_) return Aborted(what + ": this rank left the job");
  }
  for (const phal_host_message_t& message : sends) {
    PHAL_RETURN_IF_ERROR(check_peer(message.peer));
    PHAL_RETURN_IF_ERROR(Send(message.peer, message.tag, message.data,
                              message.size, deadline, what));
  }
  std::vector<bool> done(receives.size(), false);
  std::size_t left = receives.size();
  for (const phal_host_message_t& message : receives) {
    PHAL_RETURN_IF_ERROR(check_peer(message.peer));
  }
  std::unique_lock<std::mutex> lock(mutex_);
  while (left > 0) {
    for (std::size_t i = 0; i < receives.size(); ++i) {
      if (done[i]) continue;
      const phal_host_message_t& message = receives[i];
      auto box = mail_.find({message.peer, message.tag});
      if (box != mail_.end() && !box->second.empty()) {
        std::vector<uint8_t> bytes = std::move(box->second.front());
        box->second.pop_front();
        if (bytes.size() != message.size) {
          return FailedPrecondition(
              what + ": rank " + std::to_string(message.peer) + " sent " +
              std::to_string(bytes.size()) + " bytes where " +
              std::to_string(message.size) +
              " were expected (do all ranks run the same program?)");
        }
        lock.unlock();
        if (!bytes.empty())
          std::memcpy(message.data, bytes.data(), bytes.size());
        lock.lock();
        done[i] = true;
        --left;
        continue;
      }
      const std::string& closed =
          peers_[static_cast<std::size_t>(message.peer)]->closed;
      if (!closed.empty()) {
        return Unavailable(what + ": rank " + std::to_string(message.peer) +
                           " left the job before it sent (" + closed + ")");
      }
    }
    if (left == 0) break;
    if (abandoned_) return Aborted(what + ": this rank left the job");
    if (arrived_.wait_until(lock, deadline) == std::cv_status::timeout) {
      std::vector<int> missing;
      for (std::size_t i = 0; i < receives.size(); ++i) {
        if (done[i]) continue;
        auto box = mail_.find({receives[i].peer, receives[i].tag});
        if (box != mail_.end() && !box->second.empty()) continue;
        if (std::find(missing.begin(), missing.end(), receives[i].peer) ==
            missing.end()) {
          missing.push_back(receives[i].peer);
        }
      }
      if (missing.empty()) continue;
      std::sort(missing.begin(), missing.end());
      return DeadlineExceeded(what + ": ranks " + RankListToString(missing) +
                              " did not arrive within " +
                              std::to_string(timeout.count()) + " ms");
    }
  }
  return OkStatus();
}

bool TcpJob::Supports(phal_element_type_t type, phal_reduction_t reduction,
                      int rank_count) const {
  return HostReducible(type, reduction) &&
         ReductionsAllow(reductions_, type, rank_count);
}

StatusOr<uint64_t> TcpJob::MakeGroup(std::span<const int> ranks,
                                     std::chrono::milliseconds timeout) {
  const std::vector<int> list(ranks.begin(), ranks.end());
  const std::string what = "making the group of ranks " +
                           RankListToString(list) + " (rank " +
                           std::to_string(rank()) + ")";
  int32_t tag = 0;
  if (list[0] == rank()) {
    {
      std::lock_guard<std::mutex> lock(ring_mutex_);
      if (groups_led_ >= (1 << kGroupBits) ||
          rank() >= ((INT32_MAX - kFirstRingTag) >> kGroupBits)) {
        return ResourceExhausted(what + ": rank " + std::to_string(rank()) +
                                 " leads " + std::to_string(groups_led_) +
                                 " groups, as many as the TCP job tags");
      }
      tag = kFirstRingTag + (rank() << kGroupBits) + groups_led_++;
    }
    std::vector<phal_host_message_t> sends;
    for (std::size_t i = 1; i < list.size(); ++i) {
      sends.push_back({list[i], kGroupTag, &tag, sizeof(tag)});
    }
    PHAL_RETURN_IF_ERROR(ExchangeRaw(sends, {}, timeout, what));
  } else {
    const phal_host_message_t receive{list[0], kGroupTag, &tag, sizeof(tag)};
    PHAL_RETURN_IF_ERROR(ExchangeRaw({}, {&receive, 1}, timeout, what));
  }
  std::lock_guard<std::mutex> lock(ring_mutex_);
  rings_.push_back({list, tag});
  return static_cast<uint64_t>(rings_.size() - 1);
}

Status TcpJob::AllReduce(uint64_t group, void* data, std::size_t count,
                         phal_element_type_t type, phal_reduction_t reduction,
                         std::chrono::milliseconds timeout,
                         const std::string& what) {
  std::vector<int> ranks;
  int tag = 0;
  {
    std::lock_guard<std::mutex> lock(ring_mutex_);
    if (group >= rings_.size()) {
      return InvalidArgument(what + ": no group " + std::to_string(group));
    }
    ranks = rings_[group].ranks;
    tag = rings_[group].tag;
  }
  if (!HostReducible(type, reduction)) {
    return InvalidArgument(what + ": the TCP job does not run this reduction");
  }
  const std::size_t width = ElementTypeByteSize(type);
  const auto n = ranks.size();
  const auto p = static_cast<std::size_t>(
      std::find(ranks.begin(), ranks.end(), rank()) - ranks.begin());
  const auto deadline = Clock::now() + timeout;
  const auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(deadline -
                                                                 Clock::now());
  };
  auto* bytes = static_cast<uint8_t*>(data);
  if (count * width < kRingBytes || count < n) {
    // One round: every rank's buffer to every other, added in rank order.
    std::vector<std::vector<uint8_t>> theirs(n);
    std::vector<phal_host_message_t> sends;
    std::vector<phal_host_message_t> receives;
    for (std::size_t i = 0; i < n; ++i) {
      if (i == p) continue;
      theirs[i].resize(count * width);
      sends.push_back({ranks[i], tag, bytes, count * width});
      receives.push_back({ranks[i], tag, theirs[i].data(), count * width});
    }
    PHAL_RETURN_IF_ERROR(ExchangeRaw(sends, receives, left(), what));
    theirs[p].assign(bytes, bytes + count * width);
    std::memcpy(bytes, theirs[0].data(), count * width);
    for (std::size_t i = 1; i < n; ++i) {
      ReduceInto(type, reduction, bytes, theirs[i].data(), count);
    }
    return OkStatus();
  }
  // A ring: chunk c is elements [c * count / n, (c + 1) * count / n).
  const auto begin = [&](std::size_t c) { return c * count / n; };
  const auto length = [&](std::size_t c) { return begin(c + 1) - begin(c); };
  const int next = ranks[(p + 1) % n];
  const int previous = ranks[(p + n - 1) % n];
  std::vector<uint8_t> incoming((count / n + 1) * width);
  // Reduce-scatter: after n - 1 steps this rank holds chunk p + 1 reduced
  // over every rank.
  for (std::size_t step = 0; step + 1 < n; ++step) {
    const std::size_t out = (p + n - step) % n;
    const std::size_t in = (p + 2 * n - step - 1) % n;
    const phal_host_message_t send{next, tag, bytes + begin(out) * width,
                                   length(out) * width};
    const phal_host_message_t receive{previous, tag, incoming.data(),
                                      length(in) * width};
    PHAL_RETURN_IF_ERROR(ExchangeRaw({&send, 1}, {&receive, 1}, left(), what));
    ReduceInto(type, reduction, bytes + begin(in) * width, incoming.data(),
               length(in));
  }
  // All-gather: each reduced chunk travels round the ring.
  for (std::size_t step = 0; step + 1 < n; ++step) {
    const std::size_t out = (p + 1 + n - step) % n;
    const std::size_t in = (p + n - step) % n;
    const phal_host_message_t send{next, tag, bytes + begin(out) * width,
                                   length(out) * width};
    const phal_host_message_t receive{previous, tag, bytes + begin(in) * width,
                                      length(in) * width};
    PHAL_RETURN_IF_ERROR(ExchangeRaw({&send, 1}, {&receive, 1}, left(), what));
  }
  return OkStatus();
}

}  // namespace phal
