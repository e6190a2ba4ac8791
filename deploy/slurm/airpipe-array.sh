#!/bin/sh
# A sharded airpipe run as a Slurm job array: one task per shard.
#   sbatch deploy/slurm/airpipe-array.sh
# Every task writes into one run directory on shared storage, named after
# the array job; a requeued task (scontrol requeue, or a node failure with
# --requeue) resumes its own shard in place (--resume DIR --shard I/N).
#SBATCH --job-name=airpipe
#SBATCH --array=0-7
#SBATCH --cpus-per-task=8
#SBATCH --mem=32G
#SBATCH --time=12:00:00
#SBATCH --requeue
set -e
dir="/shared/results/nightly-$SLURM_ARRAY_JOB_ID"
if [ -f "$dir/run-${SLURM_ARRAY_TASK_ID}of8.json" ]; then
  exec airpipe run --resume "$dir" --shard "$SLURM_ARRAY_TASK_ID/8" --progress plain
fi
exec airpipe run --run-id "nightly-$SLURM_ARRAY_JOB_ID" --shard "$SLURM_ARRAY_TASK_ID/8" \
  --out /shared/results --jobs "$SLURM_CPUS_PER_TASK" --progress plain /shared/firmware
