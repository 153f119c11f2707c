#!/usr/bin/env bash
# The GPU kernels' compile check, on any machine (no GPU, no driver, no CUDA toolkit): installs
# NVIDIA's runtime compiler and assembler from PyPI into a virtual environment (about 340 MB,
# once), then compiles every kernel through the project's own NVRTC path for each architecture
# and reports ptxas's registers, stack frame and spills per kernel (examples/kernels_compile.rs).
# Exit 1 on a compile error or a spill.
#
#   scripts/measure/kernels-compile.sh                 (sm_80 and sm_90: the A100, the H100 and H200)
#   scripts/measure/kernels-compile.sh sm_89 sm_90     (other architectures)
#   VENV=/opt/nvrtc scripts/measure/kernels-compile.sh (where the environment lives; default
#                                                       ~/.cache/nqueens/nvrtc)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
VENV=${VENV:-$HOME/.cache/nqueens/nvrtc}
if [[ ! -x $VENV/bin/python ]]; then
  python3 -m venv "$VENV"
fi
if ! compgen -G "$VENV/lib/python3*/site-packages/nvidia/cuda_nvrtc/lib/libnvrtc.so.12" >/dev/null ||
  ! compgen -G "$VENV/lib/python3*/site-packages/nvidia/cuda_nvcc/bin/ptxas" >/dev/null; then
  echo "kernels-compile: installing nvidia-cuda-nvrtc-cu12 and nvidia-cuda-nvcc-cu12 into $VENV" >&2
  "$VENV/bin/pip" install --quiet nvidia-cuda-nvrtc-cu12 nvidia-cuda-nvcc-cu12
fi
NVIDIA=$(echo "$VENV"/lib/python3*/site-packages/nvidia)
export LD_LIBRARY_PATH="$NVIDIA/cuda_nvrtc/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export PTXAS=$NVIDIA/cuda_nvcc/bin/ptxas
echo "NVRTC $(basename "$(readlink -f "$NVIDIA/cuda_nvrtc/lib/libnvrtc.so.12")"), $("$PTXAS" --version | tail -1)"
cd "$ROOT"
cargo run --profile quick --quiet --features gpu --example kernels_compile -- "$@"
