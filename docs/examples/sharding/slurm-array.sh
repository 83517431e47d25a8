#!/bin/bash
# A Slurm job array running the units of plan.json (docs/sharding.md).
# Task IDs are the unit indices: --array=0-(units-1). Submit from the checkout:
#   jid=$(sbatch --parsable docs/examples/sharding/slurm-array.sh)
#   sbatch --dependency=afterok:$jid --wrap 'target/release/phaseline merge shards/shard-* --out merged'
#SBATCH --job-name=phaseline-shards
#SBATCH --array=0-3
#SBATCH --nodes=1
#SBATCH --exclusive
#SBATCH --constraint=bench-class
#SBATCH --output=shard-%a.log
set -euo pipefail
cd "$SLURM_SUBMIT_DIR"
# No --shard: the unit index comes from SLURM_ARRAY_TASK_ID.
target/release/phaseline run --manifest plan.json --progress lines --out "shards/shard-$SLURM_ARRAY_TASK_ID"
