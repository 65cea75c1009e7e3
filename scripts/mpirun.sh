#!/usr/bin/env bash
# Open MPI's mpirun as Polyhal's distributed runs use it: as root it wants
# OMPI_ALLOW_RUN_AS_ROOT and its confirmation, and more ranks than cores
# (four processes on a 2-core machine) need oversubscription. Arguments
# pass through:
#   scripts/mpirun.sh -np 4 build/bin/polyhal run MODULE --distributed mpi --plugin reference ...
set -euo pipefail
if [ "$(id -u)" -eq 0 ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_rmaps_base_oversubscribe="${OMPI_MCA_rmaps_base_oversubscribe:-1}"
exec mpirun "$@"
