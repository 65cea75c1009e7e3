#!/usr/bin/env bash
# Two "hosts" on this machine for runs across hosts: two network namespaces
# joined by a veth pair, with private addresses that exist inside them
# only, and mpirun started in the first with a launcher that starts each
# host's daemon inside that host's namespace. Needs root (ip netns).
#   scripts/netns-hosts.sh up                 # makes phal-host-a (10.77.0.1), phal-host-b (10.77.0.2)
#   scripts/netns-hosts.sh mpirun ARGS...     # mpirun over both, ARGS as for mpirun (e.g. -np 4 CMD)
#   scripts/netns-hosts.sh down
# As the launcher Open MPI calls for the second host:
#   scripts/netns-hosts.sh launch HOST COMMAND...
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
a=phal-host-a
b=phal-host-b
case "${1:-}" in
  up)
    ip netns add "$a"
    ip netns add "$b"
    ip link add phal-veth-a type veth peer name phal-veth-b
    ip link set phal-veth-a netns "$a"
    ip link set phal-veth-b netns "$b"
    ip -n "$a" addr add 10.77.0.1/24 dev phal-veth-a
    ip -n "$b" addr add 10.77.0.2/24 dev phal-veth-b
    for ns in "$a" "$b"; do ip -n "$ns" link set lo up; done
    ip -n "$a" link set phal-veth-a up
    ip -n "$b" link set phal-veth-b up
    ;;
  down)
    ip netns del "$a" 2>/dev/null || true
    ip netns del "$b" 2>/dev/null || true
    ;;
  launch)
    shift
    host=$1
    shift
    case "$host" in
      10.77.0.1) ns=$a ;;
      10.77.0.2) ns=$b ;;
      *) echo "netns-hosts.sh: unknown host $host" >&2; exit 1 ;;
    esac
    exec ip netns exec "$ns" sh -c "$*"
    ;;
  mpirun)
    shift
    export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
    exec ip netns exec "$a" mpirun --oversubscribe \
      --mca plm_rsh_agent "$here/netns-hosts.sh launch" \
      --mca btl tcp,self --mca btl_tcp_if_include 10.77.0.0/24 \
      --mca oob_tcp_if_include 10.77.0.0/24 \
      --host 10.77.0.1:8,10.77.0.2:8 "$@"
    ;;
  *)
    echo "usage: netns-hosts.sh up|down|mpirun ARGS...|launch HOST CMD..." >&2
    exit 2
    ;;
esac
