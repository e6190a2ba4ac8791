#!/bin/sh
# Prints its arguments and one variable, one per line, and passes.
for a in "$@"; do echo "arg: $a"; done
echo "env: $AIRPIPE_TEST_VAR"
